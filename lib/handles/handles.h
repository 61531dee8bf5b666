/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - handles tier: models, graphs, nodes, tensors, types and
 * the external data a model reads, i.e. the public handle API and what its
 * files share. Never installed. The files at the top of lib/ include this
 * header only. See
 * base/base.h for the tiers.
 */
#ifndef ONNXSLIM_HANDLES_H
#define ONNXSLIM_HANDLES_H

#include "wire/wire.h"

/* ---- graph indexes (graph.c) -------------------------------------------- */

/* Graph indexes (graph.c). The edit primitives call gindex_before() before
 * field `number` of msg changes (old_sub: the submessage the change removes
 * or replaces, if any) and gindex_after() once it has (new_sub: the one it
 * adds); the index of every graph above msg then relinks the item that
 * changed the next time it is used. */
void onnxslim__gindex_before(osl_msg *msg, uint32_t number, osl_msg *old_sub);
void onnxslim__gindex_after(osl_msg *msg, uint32_t number, osl_msg *new_sub);
/* Creates a node (as onnxslim_graph_add_node) and puts it right before
 * (after = 0) or right after (after = 1) node `anchor` of graph g, without
 * applying the graph's queued edits. */
int onnxslim__graph_add_node_near(osl_msg *g, osl_msg *anchor, int after, const char *op_type,
                                  const char *domain, const char *name, const char *const *inputs,
                                  size_t n_inputs, const char *const *outputs, size_t n_outputs,
                                  osl_msg **out);
/* Forgets graph g's index (freed; rebuilt on next use). */
void onnxslim__gindex_drop(osl_msg *g);
/* Frees every index of the model. */
void onnxslim__gindex_free_all(onnxslim_model *model);
/* Lookups for passes that expect to miss (is this value an initializer,
 * has it a producer, a value info?): as onnxslim_graph_find_initializer,
 * _find_value_info, _producer and _consumer_count, but a name nothing
 * holds gives NULL or 0 without recording an error. */
onnxslim_tensor *onnxslim__graph_initializer_q(const onnxslim_graph *graph, const char *name);
onnxslim_value_info *onnxslim__graph_value_info_q(const onnxslim_graph *graph, const char *name);
onnxslim_node *onnxslim__graph_producer_q(const onnxslim_graph *graph, const char *name);
size_t onnxslim__graph_consumer_count_q(const onnxslim_graph *graph, const char *name);
/* 1 when node a comes before node b in their graph (both of one graph),
 * else 0; constant time (queued edits counted at their places). */
int onnxslim__node_before(const onnxslim_node *a, const onnxslim_node *b);
/* The places of a graph's fields, and of node n among them: distinct per
 * node, below onnxslim__graph_slots() of its graph, in constant time (the
 * graph's queued edits applied first); valid until the graph's next edit.
 * For arrays a pass indexes by node without a map of node handles. */
size_t onnxslim__graph_slots(const onnxslim_graph *graph);
size_t onnxslim__node_slot(const onnxslim_node *n);
/* Every value info of graph g naming `name` (inputs, then outputs, then
 * value_info); *out is valid until the next edit. Returns the count (0 also
 * on error, with the last error set). */
size_t onnxslim__graph_value_infos(osl_msg *g, const char *name, osl_msg *const **out);
/* Removes the value_info entries (not inputs or outputs) of value `name`
 * from graph g, found through its index; 0 or ONNXSLIM_ENOMEM. */
int onnxslim__graph_drop_value_info(osl_msg *g, const char *name);
/* A name field f of msg was set, or a submessage f->sub was added: adds
 * the names to the model's name set when it is built (model.c). */
void onnxslim__names_note(onnxslim_model *model, const osl_msg *msg, osl_field *f);

/* ---- models (model.c) ---------------------------------------------------- */

/* 1 when st is the identity of a file the model reads (its model file or
 * an external data file, by the descriptors it keeps), else 0. */
int onnxslim__model_reads(const onnxslim_model *model, const osl_os_stat *st);

/* Loads the model file at `path` without resolving its external data (no
 * data file is opened): for reading which files a model names (a save
 * looking at the other models of its directory). Errors as
 * onnxslim_model_open(). */
int onnxslim__model_open_unresolved(onnxslim_model **out, const char *path);

/* The model's root message, or NULL with ONNXSLIM_EINVAL naming fn when
 * model is NULL or not a model handle (model.c). */
osl_msg *onnxslim__model_root(const onnxslim_model *model, const char *fn);

/* ---- memory a pass holds (model.c) ----------------------------------------- */

/* What a pass allocates in proportion to the model beyond the model's
 * structure (tables, maps, plans, reports: its scratch) counts, with that
 * structure (the model's arena, which lookups and edits also grow),
 * against the model's max_memory (onnxslim_load_options). The count is the
 * model's (model->held): passes that call passes add up. What a pass
 * allocates in amounts bounded by a constant need not be counted.
 *
 * charge adds n bytes to the count, unless the structure and the count
 * would then exceed max_memory: then nothing is counted and it records
 * ONNXSLIM_ELIMIT, "WHAT needs more memory than its max_memory allows (L
 * bytes): the model's structure takes S bytes, the passes hold H and ask
 * N more", and returns it. `what` names the pass as a phrase ("checking
 * the model", "sorting the graph"). n = 0 checks that the structure grown
 * by the pass's lookups still fits. release takes back what charge counted
 * (never below 0). Every charge of a pass is released before it returns,
 * on every path. */
int onnxslim__mem_charge(const onnxslim_model *model, uint64_t n, const char *what);
void onnxslim__mem_release(const onnxslim_model *model, uint64_t n);
/* What malloc(n) costs: the block, its header and rounding. */
uint64_t onnxslim__mem_cost(size_t n);
/* A counted scratch allocator: malloc (calloc: zeroed) of n bytes charged
 * to the model as above (the block remembers its size); NULL with the last
 * error set (ONNXSLIM_ELIMIT or ONNXSLIM_ENOMEM). realloc of NULL
 * allocates; a failed realloc leaves p as it was. free releases the charge
 * and the block (p NULL: no-op). Never mix with malloc/free. */
void *onnxslim__mem_alloc(const onnxslim_model *model, size_t n, const char *what);
void *onnxslim__mem_calloc(const onnxslim_model *model, size_t count, size_t size,
                           const char *what);
void *onnxslim__mem_realloc(const onnxslim_model *model, void *p, size_t n, const char *what);
void onnxslim__mem_free(const onnxslim_model *model, void *p);
/* Counted maps (slots from malloc, arena NULL): reserve makes room for n
 * keys, add/add_ptr add one (as onnxslim__map_add), each first charging
 * the slots it would allocate; 0 (add: 1 added, 0 present) or the error
 * code with the last error set. map_free releases the charge and the
 * slots. Never mix with the uncounted calls that grow the map. */
int onnxslim__mem_map_reserve(const onnxslim_model *model, osl_map *map, size_t n,
                              const char *what);
int onnxslim__mem_map_add(const onnxslim_model *model, osl_map *map, const char *key,
                          osl_map_entry **entry, const char *what);
int onnxslim__mem_map_add_ptr(const onnxslim_model *model, osl_map *map, const void *key,
                              osl_map_entry **entry, const char *what);
void onnxslim__mem_map_free(const onnxslim_model *model, osl_map *map);

/* ---- external data (extdata.c) ------------------------------------------- */

/* Where an external tensor's bytes are (extdata.c; tensor.c keeps it). */
typedef struct osl_extref {
  size_t file; /* index into model->ext */
  uint64_t offset, length;
} osl_extref;
/* The value of external_data key `key` of tensor t, NULL when absent. */
const char *onnxslim__external_entry(osl_msg *tensor, const char *key);
/* 1 if loc is an acceptable external data location (relative, "/"
 * separated, no "..", naming a file), else 0 with *why saying why not. */
int onnxslim__location_ok(const char *loc, const char **why);

/* Calls fn(ctx, location) for every value of a "location" key of every
 * tensor under msg stored in external data (all of them, also when a key is
 * given twice, which a load refuses); stops at fn's first nonzero return,
 * which it returns. The locations are not checked. */
int onnxslim__external_locations(osl_msg *msg, int (*fn)(void *ctx, const char *loc), void *ctx);

/* Resolves and maps every external tensor of a freshly parsed model. */
int onnxslim__external_load(onnxslim_model *model);
/* Frees what external_load set up. */
void onnxslim__external_free(onnxslim_model *model);
/* What a tensor's handle caches (msg->cache of a TensorProto, set up by
 * tensor.c's validation at load): its element count, its bytes once read,
 * and its resolved external reference (extdata.c's). */
typedef struct {
  int64_t count; /* element count */
  const void *data;
  size_t size;
  int have_data;
  const void *extref; /* resolved external data (extdata.c) */
} osl_tcache;
/* The resolved external reference of a tensor (extdata.c; kept in its
 * osl_tcache). */
void onnxslim__tensor_set_extref(osl_msg *tensor, const void *ref);
const void *onnxslim__tensor_extref(const osl_msg *tensor);
/* 0 when every tensor stored externally now would still resolve from the
 * directory of `path` (the model's base directory) to the file it was
 * loaded from (not replaced or removed since), else ONNXSLIM_EINVAL saying
 * which tensor would not. */
int onnxslim__external_refs_resolve(const onnxslim_model *model, const char *path);
/* Bytes of an external tensor: pointer into the mapped file and length. */
int onnxslim__external_data(osl_msg *tensor, const uint8_t **data, size_t *size);
/* Number of tensors stored in external data now. */
size_t onnxslim__external_count(const onnxslim_model *model);

/* ---- tensors (tensor.c) ---------------------------------------------------- */

/* Tensor validation at load and after edits: checks dims and (re)builds
 * the tensor's cache. */
int onnxslim__tensor_validate(osl_msg *tensor, const char *where);
/* The same for a copy of src, which keeps src's external data when both
 * are of one model (osl_hooks.tensor_copied). */
int onnxslim__tensor_copied(osl_msg *copy, const osl_msg *src);
/* The tensor's bytes as a save writes them: a pending transform (*x, with
 * *n its output length), or a pointer *p and length *n. */
int onnxslim__tensor_source(osl_msg *tensor, const osl_xform **x, const uint8_t **p, size_t *n);
/* Bytes off..off+n of the tensor's data as a save writes them, into buf:
 * of a pending transform, made from the source elements they come from
 * (onnxslim__xform_read), so it is never materialized; else as
 * onnxslim_tensor_read. 0 or an error. */
int onnxslim__tensor_read_out(osl_msg *tensor, uint64_t off, void *buf, size_t n);
/* Replaces the tensor's data by a pending transform of it (dims kept),
 * stored as raw_data of data type dtype once saved. */
int onnxslim__tensor_set_xform(osl_msg *tensor, int32_t dtype, const osl_xform *x);

#endif /* ONNXSLIM_HANDLES_H */
