/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - the node inputs onnxruntime reads when it loads a model,
 * which must therefore stay inline: a tensor stored in external data there
 * makes onnxruntime 1.30 refuse the model ("Cannot parse data from external
 * tensors", from shape inference, or If's constant folding resolving the
 * data file from the working directory).
 *
 * The table is onnxruntime's behaviour, not the ONNX spec's. It is found
 * and checked by test/steps/48-inline-table.sh (test/external/inline_sweep.py),
 * which loads every model of the node test data (every op at every opset
 * it has) with each input in turn stored externally: the step fails if an
 * input onnxruntime needs inline is missing here, or a row covers an input
 * it loads from external data. A row the sweep cannot observe (an opset
 * or an input the test data lacks) gives the reason it is kept; a row
 * the sweep observes gives NULL. inline_sweep.py parses the rows: one per
 * line, in exactly this form.
 */
#include <string.h>

#include "passes/passes.h"

typedef struct {
  const char *op, *domain;
  int since, until; /* model opsets [since, until) of the domain; until 0: no end */
  unsigned int index;
  const char *why; /* NULL: observed by the sweep; else why the row is kept */
} osl_load_input;

/* clang-format off */
static const osl_load_input osl_load_inputs[] = {
    /* op, domain, since, until, input, why */
    {"AffineGrid", "", 20, 0, 1, NULL},
    {"BlackmanWindow", "", 17, 0, 0, NULL},
    {"CenterCropPad", "", 18, 0, 1, NULL},
    {"Col2Im", "", 18, 0, 1, NULL},
    {"Col2Im", "", 18, 0, 2, NULL},
    {"ConstantOfShape", "", 9, 0, 0, NULL},
    {"DFT", "", 17, 0, 1, NULL},
    {"DFT", "", 20, 0, 2, NULL},
    {"Expand", "", 8, 0, 1, NULL},
    {"HammingWindow", "", 17, 0, 0, NULL},
    {"HannWindow", "", 17, 0, 0, NULL},
    {"If", "", 1, 0, 0, NULL},
    {"MelWeightMatrix", "", 17, 0, 0, NULL},
    {"MelWeightMatrix", "", 17, 0, 1, NULL},
    {"OneHot", "", 9, 0, 1, NULL},
    {"Pad", "", 11, 0, 1, NULL},
    {"Pad", "", 18, 0, 3, NULL},
    {"Range", "", 11, 0, 0, NULL},
    {"Range", "", 11, 0, 1, NULL},
    {"Range", "", 11, 0, 2, NULL},
    {"ReduceL1", "", 18, 0, 1, NULL},
    {"ReduceL2", "", 18, 0, 1, NULL},
    {"ReduceLogSum", "", 18, 0, 1, NULL},
    {"ReduceLogSumExp", "", 18, 0, 1, NULL},
    {"ReduceMax", "", 18, 0, 1, NULL},
    {"ReduceMean", "", 18, 0, 1, NULL},
    {"ReduceMin", "", 18, 0, 1, NULL},
    {"ReduceProd", "", 18, 0, 1, NULL},
    {"ReduceSum", "", 13, 0, 1, NULL},
    {"ReduceSumSquare", "", 18, 0, 1, NULL},
    {"Reshape", "", 5, 0, 1, NULL},
    {"Resize", "", 10, 11, 1, NULL},
    {"Resize", "", 11, 0, 2, NULL},
    {"Resize", "", 11, 0, 3, NULL},
    {"STFT", "", 17, 0, 1, NULL},
    {"STFT", "", 17, 0, 3, NULL},
    {"Slice", "", 10, 0, 1, NULL},
    {"Slice", "", 10, 0, 2, NULL},
    {"Slice", "", 10, 0, 3, NULL},
    {"Slice", "", 10, 0, 4, NULL},
    {"Split", "", 13, 0, 1, NULL},
    {"Squeeze", "", 13, 0, 1, NULL},
    {"Tile", "", 6, 0, 1, NULL},
    {"TopK", "", 10, 0, 1, NULL},
    {"Unsqueeze", "", 13, 0, 1, NULL},
    {"Upsample", "", 9, 10, 1, NULL},
};
/* clang-format on */

/* The opset the model imports for domain ("" or "ai.onnx": the default
 * one), 0 when none. */
static int64_t model_opset(const onnxslim_model *m, const char *domain) {
  int ai = !domain[0] || strcmp(domain, "ai.onnx") == 0;
  for (size_t i = 0; i < onnxslim_model_opset_count(m); i++) {
    const char *d = NULL;
    int64_t v = 0;
    if (onnxslim_model_opset(m, i, &d, &v) != 0 || !d) continue;
    if (ai ? !d[0] || strcmp(d, "ai.onnx") == 0 : strcmp(d, domain) == 0) return v;
  }
  return 0;
}

onnxslim_node *onnxslim__load_reader(const onnxslim_model *m, const onnxslim_graph *g,
                                     const char *name, size_t *index) {
  size_t nc = onnxslim_graph_consumer_count(g, name);
  for (size_t i = 0; i < nc; i++) {
    onnxslim_node *c = onnxslim_graph_consumer(g, name, i);
    const char *domain = onnxslim_node_domain(c);
    const char *op = onnxslim_node_op_type(c);
    for (size_t k = 0; k < onnxslim_node_input_count(c); k++)
      if (strcmp(onnxslim_node_input(c, k), name) == 0 &&
          onnxslim__read_at_load(domain, op, model_opset(m, domain), k)) {
        if (index) *index = k;
        return c;
      }
    /* a capture: look into the node's subgraphs */
    for (size_t k = 0; k < onnxslim_node_subgraph_count(c); k++) {
      onnxslim_node *r = onnxslim__load_reader(m, onnxslim_node_subgraph(c, k), name, index);
      if (r) return r;
    }
  }
  return NULL;
}

int onnxslim__read_at_load(const char *domain, const char *op, int64_t opset, size_t index) {
  if (!domain || strcmp(domain, "ai.onnx") == 0) domain = "";
  for (size_t i = 0; i < sizeof osl_load_inputs / sizeof osl_load_inputs[0]; i++) {
    const osl_load_input *r = &osl_load_inputs[i];
    if (r->index == index && opset >= r->since && (r->until == 0 || opset < r->until) &&
        strcmp(r->op, op) == 0 && strcmp(r->domain, domain) == 0)
      return 1;
  }
  return 0;
}
