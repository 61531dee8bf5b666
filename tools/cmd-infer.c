/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - `libonnxslim infer MODEL [OUT]`: type and
 * shape inference (onnxslim/infer.h). Without OUT it prints what inference
 * finds and changes nothing; with OUT it writes the model with the
 * inferred types as value_info (the save of `convert`, checked first).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "convert.h"

typedef struct infer_settings {
  convert_settings cs; /* the save when OUT is given */
  unsigned int flags;  /* ONNXSLIM_INFER_* */
  int report;          /* --report */
  int json;            /* --json */
  onnxslim_infer_report *rep;
} infer_settings;

static int opt_strict(void *ctx, const char *value) {
  (void)value;
  ((infer_settings *)ctx)->flags |= ONNXSLIM_INFER_STRICT;
  return 0;
}

static int opt_no_data_prop(void *ctx, const char *value) {
  (void)value;
  ((infer_settings *)ctx)->flags |= ONNXSLIM_INFER_NO_DATA_PROP;
  return 0;
}

static int opt_infer_report(void *ctx, const char *value) {
  (void)value;
  ((infer_settings *)ctx)->report = 1;
  return 0;
}

static int opt_infer_json(void *ctx, const char *value) {
  (void)value;
  ((infer_settings *)ctx)->json = 1;
  return 0;
}

static int opt_infer_no_verify(void *ctx, const char *value) {
  return opt_no_verify(&((infer_settings *)ctx)->cs, value);
}

static int opt_infer_verify(void *ctx, const char *value) {
  return opt_verify(&((infer_settings *)ctx)->cs, value);
}

static const option_spec infer_options[] = {
    {"--strict", NULL, opt_strict,
     "fail (exit 1, nothing written) when an inferred\n"
     "type disagrees with one the model states;\n"
     "by default the model's is kept and reported"},
    {"--no-data-prop", NULL, opt_no_data_prop,
     "do not follow the values of shape tensors\n"
     "(Shape, Gather, Concat, ... into Reshape)"},
    {"--report", NULL, opt_infer_report,
     "with OUT: print the counts and every value\n"
     "inferred (without OUT they are always printed)"},
    {"--verify", NULL, opt_infer_verify,
     "with OUT: check the model before writing it, and\n"
     "write nothing if it fails a check MODEL passed\n(the default)"},
    {"--no-verify", NULL, opt_infer_no_verify, "with OUT: write the model unchecked"},
    {"--json", NULL, opt_infer_json, "print the values inferred as JSON (docs/json.md)"},
    {NULL, NULL, NULL, NULL},
};

static const char *status_name(int status) {
  switch (status) {
  case ONNXSLIM_INFER_NEW: return "new";
  case ONNXSLIM_INFER_REFINED: return "refined";
  case ONNXSLIM_INFER_SAME: return "same";
  case ONNXSLIM_INFER_CONFLICT: return "conflict";
  default: return "?";
  }
}

/* "FLOAT[batch, 3, ?]", "FLOAT (no shape)" for entry i. */
static void sb_entry_type(strbuf *sb, const onnxslim_infer_report *r, size_t i) {
  int32_t dt = onnxslim_infer_report_dtype(r, i);
  int64_t rank = onnxslim_infer_report_rank(r, i);
  if (dt) sb_dtype(sb, dt);
  else sb_puts(sb, "?");
  if (rank < 0) {
    sb_puts(sb, " (no shape)");
    return;
  }
  sb_puts(sb, "[");
  for (int64_t k = 0; k < rank; k++) {
    int64_t v = 0;
    const char *p = "";
    int dk = onnxslim_infer_report_dim(r, i, (size_t)k, &v, &p);
    if (k) sb_puts(sb, ", ");
    if (dk == ONNXSLIM_DIM_VALUE) sb_printf(sb, "%" PRId64, v);
    else if (dk == ONNXSLIM_DIM_PARAM && p[0]) sb_escaped(sb, p);
    else sb_puts(sb, "?");
  }
  sb_puts(sb, "]");
}

/* counts[status] for the statuses 1..4 */
static void count_statuses(const onnxslim_infer_report *r, size_t counts[5]) {
  for (int s = 0; s < 5; s++) counts[s] = 0;
  for (size_t i = 0; i < onnxslim_infer_report_count(r); i++) {
    int s = onnxslim_infer_report_status(r, i);
    if (s >= 1 && s <= 4) counts[s]++;
  }
}

static void print_text(const onnxslim_infer_report *r, int wrote) {
  size_t c[5];
  count_statuses(r, c);
  printf("inferred %zu value%s: %zu new, %zu refined, %zu same, %zu conflict%s%s\n",
         onnxslim_infer_report_count(r), onnxslim_infer_report_count(r) == 1 ? "" : "s",
         c[ONNXSLIM_INFER_NEW], c[ONNXSLIM_INFER_REFINED], c[ONNXSLIM_INFER_SAME],
         c[ONNXSLIM_INFER_CONFLICT], c[ONNXSLIM_INFER_CONFLICT] == 1 ? "" : "s",
         wrote ? " (new and refined written as value_info)" : "");
  if (!onnxslim_infer_report_count(r)) return;
  table t;
  strbuf sb = {0};
  table_init(&t, "lll");
  t.max_width = NAME_MAX_WIDTH;
  table_add(&t, "value");
  table_add(&t, "status");
  table_add(&t, "type");
  for (size_t i = 0; i < onnxslim_infer_report_count(r); i++) {
    table_add_esc(&t, onnxslim_infer_report_name(r, i));
    table_add(&t, status_name(onnxslim_infer_report_status(r, i)));
    sb_reset(&sb);
    sb_entry_type(&sb, r, i);
    table_add(&t, sb_str(&sb));
  }
  table_print(&t, INDENT, NULL);
  table_free(&t);
  sb_free(&sb);
}

static void print_json(const onnxslim_infer_report *r, const char *in, const char *out) {
  size_t c[5];
  count_statuses(r, c);
  json j;
  json_init(&j, stdout);
  json_object(&j);
  json_kstr(&j, "schema", "libonnxslim.infer/1");
  json_kstr(&j, "file", in);
  json_kstr(&j, "output", out);
  json_kuint(&j, "new", c[ONNXSLIM_INFER_NEW]);
  json_kuint(&j, "refined", c[ONNXSLIM_INFER_REFINED]);
  json_kuint(&j, "same", c[ONNXSLIM_INFER_SAME]);
  json_kuint(&j, "conflicts", c[ONNXSLIM_INFER_CONFLICT]);
  json_karray(&j, "values");
  strbuf sb = {0};
  for (size_t i = 0; i < onnxslim_infer_report_count(r); i++) {
    int64_t rank = onnxslim_infer_report_rank(r, i);
    int32_t dt = onnxslim_infer_report_dtype(r, i);
    json_object(&j);
    json_kstr(&j, "name", onnxslim_infer_report_name(r, i));
    json_kstr(&j, "status", status_name(onnxslim_infer_report_status(r, i)));
    sb_reset(&sb);
    if (dt) sb_dtype(&sb, dt);
    json_kstr(&j, "dtype", dt ? sb_str(&sb) : NULL);
    if (rank < 0) {
      json_knull(&j, "shape");
    } else {
      json_karray(&j, "shape");
      for (int64_t k = 0; k < rank; k++) {
        int64_t v = 0;
        const char *p = "";
        int dk = onnxslim_infer_report_dim(r, i, (size_t)k, &v, &p);
        if (dk == ONNXSLIM_DIM_VALUE) json_int(&j, v);
        else if (dk == ONNXSLIM_DIM_PARAM && p[0]) json_str(&j, p);
        else json_null(&j);
      }
      json_end(&j);
    }
    json_end(&j);
  }
  sb_free(&sb);
  json_end(&j);
  json_end(&j);
  json_finish(&j);
}

/* The edit convert_model() makes before its check and save. */
static int infer_edit(onnxslim_model *model, const char *in, void *payload) {
  infer_settings *s = payload;
  onnxslim_infer_options o = ONNXSLIM_INFER_OPTIONS_INIT;
  o.flags = s->flags;
  if (onnxslim_infer_shapes(&s->rep, model, &o) != ONNXSLIM_OK)
    return fail_lib("cannot infer the shapes of '%s'", in);
  return EXIT_SUCCESS;
}

static int run_infer(const command *cmd, int argc, char **argv) {
  infer_settings s = {0};
  const char *pos[2];
  size_t npos;

  convert_settings_init(&s.cs);
  int rc = parse_args(cmd, &s, argc, argv, pos, 2, &npos);
  if (rc != PARSE_CONTINUE) return rc;
  if (npos < 1) return usage_error("%s: expected %s", cmd->name, cmd->args);
  if (npos == 1 && s.cs.no_verify)
    return usage_error("%s: --no-verify needs OUT (nothing is written without it)", cmd->name);
  if (npos == 2) {
    rc = convert_settings_check(cmd, &s.cs, pos[1]);
    if (rc != PARSE_CONTINUE) return rc;
    s.cs.edit = infer_edit;
    s.cs.edit_payload = &s;
    rc = convert_model(pos[0], pos[1], &s.cs);
    if (rc == EXIT_SUCCESS && s.rep) {
      if (s.json) print_json(s.rep, pos[0], pos[1]);
      else if (s.report) print_text(s.rep, 1);
      rc = finish_stdout(EXIT_SUCCESS);
    }
    onnxslim_infer_report_free(s.rep);
    return rc;
  }
  onnxslim_model *model = NULL;
  rc = open_model(&model, pos[0]);
  if (rc != EXIT_SUCCESS) return rc;
  s.flags |= ONNXSLIM_INFER_DRY_RUN;
  rc = infer_edit(model, pos[0], &s);
  onnxslim_model_free(model);
  if (rc != EXIT_SUCCESS) return rc;
  if (s.json) print_json(s.rep, pos[0], NULL);
  else print_text(s.rep, 0);
  onnxslim_infer_report_free(s.rep);
  return finish_stdout(EXIT_SUCCESS);
}

const command cmd_infer = {"infer", "MODEL [OUT]",
                           "infer element types and shapes (with symbolic\n"
                           "dims) and print them; with OUT, save the model\n"
                           "with them as value_info",
                           infer_options, run_infer};
