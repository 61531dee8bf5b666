/*
 * onnxslim - command-line front end of libonnxslim.
 *
 *   onnxslim info MODEL        print a summary of MODEL
 *   onnxslim convert IN OUT    load IN and save it as OUT
 *   onnxslim check MODEL       validate MODEL, print each problem found
 *   onnxslim --version | --help
 *
 * Uses the public API (<onnxslim.h>) only.
 *
 * Exit status: 0 on success, 1 on failure, 2 on a usage error.
 * `check` exits 0 when MODEL is valid, 1 when it has problems, 2 on a usage
 * error and 3 when MODEL cannot be read (or checked).
 * Library error messages go to stderr as "onnxslim: <what>: <message>".
 */
#define _POSIX_C_SOURCE 200809L /* stat() */
#define _FILE_OFFSET_BITS 64    /* st_size of files over 2 GiB on 32-bit hosts */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <onnxslim.h>

#define EXIT_USAGE 2

#if defined(__GNUC__)
#  define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#  define PRINTF_LIKE(f, a)
#endif

static const char *progname = "onnxslim";

/* ======================================================================== */
/* memory and string helpers                                                */
/* ======================================================================== */

static void *xrealloc(void *p, size_t n)
{
  void *q = realloc(p, n ? n : 1);
  if (!q) {
    fprintf(stderr, "%s: out of memory\n", progname);
    exit(EXIT_FAILURE);
  }
  return q;
}

static void *xmalloc(size_t n)
{
  void *p = malloc(n ? n : 1);
  if (!p) {
    fprintf(stderr, "%s: out of memory\n", progname);
    exit(EXIT_FAILURE);
  }
  return p;
}

static void *xmalloc_array(size_t count, size_t size)
{
  if (size && count > SIZE_MAX / size) {
    fprintf(stderr, "%s: out of memory\n", progname);
    exit(EXIT_FAILURE);
  }
  return xmalloc(count * size);
}

static char *xstrdup(const char *s)
{
  size_t n = strlen(s) + 1;
  return memcpy(xmalloc(n), s, n);
}

/* A growable NUL-terminated string. Zero-initialize before use. */
typedef struct strbuf {
  char *p;
  size_t len, cap;
} strbuf;

static void sb_reserve(strbuf *sb, size_t extra)
{
  if (sb->len + extra + 1 > sb->cap) {
    size_t cap = sb->cap ? sb->cap : 64;
    while (cap < sb->len + extra + 1)
      cap *= 2;
    sb->p = xrealloc(sb->p, cap);
    sb->cap = cap;
  }
}

static void sb_reset(strbuf *sb)
{
  sb->len = 0;
  if (sb->p)
    sb->p[0] = '\0';
}

static const char *sb_str(const strbuf *sb) { return sb->p ? sb->p : ""; }

static void sb_free(strbuf *sb)
{
  free(sb->p);
  sb->p = NULL;
  sb->len = sb->cap = 0;
}

static void sb_putn(strbuf *sb, const char *s, size_t n)
{
  sb_reserve(sb, n);
  memcpy(sb->p + sb->len, s, n);
  sb->len += n;
  sb->p[sb->len] = '\0';
}

static void sb_puts(strbuf *sb, const char *s) { sb_putn(sb, s, strlen(s)); }

static void sb_vprintf(strbuf *sb, const char *fmt, va_list ap) PRINTF_LIKE(2, 0);
static void sb_vprintf(strbuf *sb, const char *fmt, va_list ap)
{
  va_list ap2;
  int n;

  va_copy(ap2, ap);
  n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0)
    return;
  sb_reserve(sb, (size_t)n);
  vsnprintf(sb->p + sb->len, (size_t)n + 1, fmt, ap);
  sb->len += (size_t)n;
}

static void sb_printf(strbuf *sb, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void sb_printf(strbuf *sb, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(sb, fmt, ap);
  va_end(ap);
}

/* Appends s with control characters escaped, so that names from a model
 * cannot break the layout of the output. UTF-8 passes through. */
static void sb_escaped(strbuf *sb, const char *s)
{
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '\n')
      sb_puts(sb, "\\n");
    else if (c == '\t')
      sb_puts(sb, "\\t");
    else if (c == '\r')
      sb_puts(sb, "\\r");
    else if (c < 0x20 || c == 0x7f)
      sb_printf(sb, "\\x%02x", c);
    else
      sb_putn(sb, s, 1);
  }
}

/* Escaped copy of s in *sb (reset first); returns the text. */
static const char *esc(strbuf *sb, const char *s)
{
  sb_reset(sb);
  sb_escaped(sb, s);
  return sb_str(sb);
}

/* Width on a terminal, counting one column per UTF-8 code point. */
static size_t display_width(const char *s)
{
  size_t w = 0;
  for (; *s; s++)
    if (((unsigned char)*s & 0xC0) != 0x80)
      w++;
  return w;
}

/* "37.5 KiB" etc. for n >= 1024, else "" (callers print bytes anyway). */
static void human_size(char *buf, size_t bufsize, uint64_t n)
{
  static const char *const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = (double)n;
  size_t u = 0;

  if (n < 1024) {
    buf[0] = '\0';
    return;
  }
  v /= 1024.0;
  while (v >= 1024.0 && u + 1 < sizeof units / sizeof units[0]) {
    v /= 1024.0;
    u++;
  }
  snprintf(buf, bufsize, "%.1f %s", v, units[u]);
}

/* "N bytes" or "N bytes (1.2 MiB)" */
static void sb_byte_count(strbuf *sb, uint64_t n)
{
  char h[32];
  human_size(h, sizeof h, n);
  sb_printf(sb, "%" PRIu64 " byte%s", n, n == 1 ? "" : "s");
  if (h[0])
    sb_printf(sb, " (%s)", h);
}

/* ======================================================================== */
/* aligned tables                                                           */
/* ======================================================================== */

#define TABLE_MAX_COLS 8
/* Columns wider than this are not padded further; long cells just overflow. */
#define TABLE_MAX_WIDTH 48

typedef struct table {
  const char *align; /* one 'l' or 'r' per column */
  size_t ncols;
  char **cells;
  size_t ncells, cap;
} table;

static void table_init(table *t, const char *align)
{
  memset(t, 0, sizeof *t);
  t->align = align;
  t->ncols = strlen(align);
}

static void table_add(table *t, const char *text)
{
  if (t->ncells == t->cap) {
    t->cap = t->cap ? t->cap * 2 : 16;
    t->cells = xrealloc(t->cells, t->cap * sizeof *t->cells);
  }
  t->cells[t->ncells++] = xstrdup(text);
}

static void table_addf(table *t, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void table_addf(table *t, const char *fmt, ...)
{
  strbuf sb = {0};
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(&sb, fmt, ap);
  va_end(ap);
  table_add(t, sb_str(&sb));
  sb_free(&sb);
}

static void table_add_esc(table *t, const char *s)
{
  strbuf sb = {0};
  table_add(t, esc(&sb, s));
  sb_free(&sb);
}

static size_t table_rows(const table *t) { return t->ncols ? t->ncells / t->ncols : 0; }

/* Widens w[] (TABLE_MAX_COLS entries) to fit the table's cells. Measuring
 * several tables into one w[] aligns them with each other. */
static void table_measure(const table *t, size_t *w)
{
  size_t i;
  for (i = 0; i < t->ncells; i++) {
    size_t c = i % t->ncols, dw = display_width(t->cells[i]);
    if (dw > TABLE_MAX_WIDTH)
      dw = TABLE_MAX_WIDTH;
    if (dw > w[c])
      w[c] = dw;
  }
}

static void table_print(const table *t, const char *indent, const size_t *widths)
{
  size_t own[TABLE_MAX_COLS] = {0};
  strbuf line = {0};
  size_t r, c;

  if (!widths) {
    table_measure(t, own);
    widths = own;
  }
  for (r = 0; r < table_rows(t); r++) {
    sb_reset(&line);
    sb_puts(&line, indent);
    for (c = 0; c < t->ncols; c++) {
      const char *cell = t->cells[r * t->ncols + c];
      size_t dw = display_width(cell), pad = dw < widths[c] ? widths[c] - dw : 0;
      if (c > 0)
        sb_puts(&line, "  ");
      if (t->align[c] == 'r')
        while (pad--)
          sb_putn(&line, " ", 1);
      sb_puts(&line, cell);
      if (t->align[c] != 'r')
        while (pad--)
          sb_putn(&line, " ", 1);
    }
    while (line.len > 0 && line.p[line.len - 1] == ' ')
      line.p[--line.len] = '\0';
    puts(sb_str(&line));
  }
  sb_free(&line);
}

static void table_free(table *t)
{
  size_t i;
  for (i = 0; i < t->ncells; i++)
    free(t->cells[i]);
  free(t->cells);
  memset(t, 0, sizeof *t);
}

/* ======================================================================== */
/* errors and output                                                        */
/* ======================================================================== */

/* Reports a failed library call: "onnxslim: <what>: <last error>".
 * Returns EXIT_FAILURE. Call it right after the failing call. */
static int fail_lib(const char *fmt, ...) PRINTF_LIKE(1, 2);
static int fail_lib(const char *fmt, ...)
{
  /* Copy the message first: it is only valid until the next library call. */
  char *msg = xstrdup(onnxslim_error_last());
  int code = onnxslim_error_last_code();
  va_list ap;

  if (!msg[0]) {
    free(msg);
    msg = xstrdup(code ? onnxslim_strerror(code) : "unknown error");
  }
  fflush(stdout);
  fprintf(stderr, "%s: ", progname);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, ": %s\n", msg);
  free(msg);
  return EXIT_FAILURE;
}

/* Makes sure everything written to stdout arrived; turns status into the
 * exit status of the program. */
static int finish_stdout(int status)
{
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "%s: writing to standard output: %s\n", progname, strerror(errno));
    return EXIT_FAILURE;
  }
  return status;
}

/* ======================================================================== */
/* command line                                                             */
/* ======================================================================== */

/*
 * Options of a command. To add one, write a handler that stores the value in
 * the command's context struct and add a row to the command's table, e.g.
 *   {"--to", "OPSET", convert_opt_to, "convert to opset OPSET"},
 * Both "--name VALUE" and "--name=VALUE" are accepted for options taking a
 * value. A handler returns 0, or prints why the value is bad and returns -1
 * (a usage error).
 */
typedef int (*option_handler)(void *ctx, const char *value);

typedef struct option_spec {
  const char *name;       /* "--gather-to"; NULL ends the table */
  const char *metavar;    /* name of the value in the help, NULL: takes none */
  option_handler handler;
  const char *help;
} option_spec;

typedef struct command {
  const char *name;
  const char *args;    /* positional arguments for the usage text */
  const char *summary; /* may contain '\n' for more lines */
  const option_spec *options;
  int (*run)(const struct command *cmd, int argc, char **argv);
} command;

static void print_usage(FILE *f);

static int usage_error(const char *fmt, ...) PRINTF_LIKE(1, 2);
static int usage_error(const char *fmt, ...)
{
  va_list ap;
  fflush(stdout);
  fprintf(stderr, "%s: ", progname);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputs("\n\n", stderr);
  print_usage(stderr);
  return EXIT_USAGE;
}

#define PARSE_CONTINUE (-1)

/*
 * Parses argv[1..argc-1] of a command (argv[0] is the command name): options
 * from cmd->options go to their handlers with ctx, everything else is
 * collected into pos[] (at most max_pos entries; *npos receives the count).
 * "--" ends the options; "-" alone is an argument.
 * Returns PARSE_CONTINUE, or an exit status: 0 after --help, EXIT_USAGE after
 * a usage error (already reported).
 */
static int parse_args(const command *cmd, void *ctx, int argc, char **argv, const char **pos,
                      size_t max_pos, size_t *npos)
{
  int i, only_positional = 0;

  *npos = 0;
  for (i = 1; i < argc; i++) {
    const char *arg = argv[i];

    if (!only_positional && strcmp(arg, "--") == 0) {
      only_positional = 1;
      continue;
    }
    if (!only_positional && arg[0] == '-' && arg[1] != '\0') {
      const option_spec *opt;
      const char *eq = strchr(arg, '=');
      size_t namelen = (arg[1] == '-' && eq) ? (size_t)(eq - arg) : strlen(arg);
      const char *value = NULL;

      if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
        print_usage(stdout);
        return finish_stdout(EXIT_SUCCESS);
      }
      for (opt = cmd->options; opt->name; opt++)
        if (strlen(opt->name) == namelen && strncmp(opt->name, arg, namelen) == 0)
          break;
      if (!opt->name)
        return usage_error("%s: unknown option '%.*s'", cmd->name, (int)namelen, arg);
      if (opt->metavar) {
        if (arg[namelen] == '=')
          value = arg + namelen + 1;
        else if (i + 1 < argc)
          value = argv[++i];
        else
          return usage_error("%s: option '%s' needs a value (%s)", cmd->name, opt->name,
                             opt->metavar);
      } else if (arg[namelen] == '=') {
        return usage_error("%s: option '%s' takes no value", cmd->name, opt->name);
      }
      if (opt->handler(ctx, value) != 0)
        return usage_error("%s: invalid use of option '%s'", cmd->name, opt->name);
      continue;
    }
    if (*npos == max_pos)
      return usage_error("%s: too many arguments (expected %s)", cmd->name, cmd->args);
    pos[(*npos)++] = arg;
  }
  return PARSE_CONTINUE;
}

/* ======================================================================== */
/* info                                                                     */
/* ======================================================================== */

#define LABEL_WIDTH 22
#define INDENT "    "
#define TOP_INITIALIZERS 5

static void field(const char *label, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void field(const char *label, const char *fmt, ...)
{
  va_list ap;
  char l[LABEL_WIDTH + 2];
  snprintf(l, sizeof l, "%s:", label);
  printf("%-*s", LABEL_WIDTH, l);
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  putchar('\n');
}

static void sb_dtype(strbuf *sb, int32_t dtype)
{
  const char *name = onnxslim_dtype_name(dtype);
  if (name)
    sb_puts(sb, name);
  else
    sb_printf(sb, "dtype(%" PRId32 ")", dtype);
}

static int sb_type(strbuf *sb, const onnxslim_type *type);

/* The inner type of a sequence, optional or map; "?" when absent.
 * Returns 0 or -1 on a library error. */
static int sb_inner_type(strbuf *sb, const onnxslim_type *type)
{
  const onnxslim_type *inner = onnxslim_type_inner(type);
  if (!inner) {
    if (onnxslim_error_last_code() != ONNXSLIM_ENOTFOUND)
      return -1;
    sb_puts(sb, "?");
    return 0;
  }
  return sb_type(sb, inner);
}

/* "FLOAT[batch, 3, ?, 224]", "INT64[]" (scalar), "FLOAT (no shape)",
 * "sequence<...>", "map<INT64, FLOAT>", "optional<...>".
 * Returns 0 or -1 on a library error. */
static int sb_type(strbuf *sb, const onnxslim_type *type)
{
  int kind = onnxslim_type_kind(type);
  size_t i, rank;

  switch (kind) {
  case ONNXSLIM_TYPE_TENSOR:
  case ONNXSLIM_TYPE_SPARSE_TENSOR:
    if (kind == ONNXSLIM_TYPE_SPARSE_TENSOR)
      sb_puts(sb, "sparse ");
    sb_dtype(sb, onnxslim_type_elem_type(type));
    if (!onnxslim_type_has_shape(type)) {
      sb_puts(sb, " (no shape)");
      return 0;
    }
    rank = onnxslim_type_rank(type);
    sb_puts(sb, "[");
    for (i = 0; i < rank; i++) {
      int64_t value = 0;
      const char *param = "";
      int dk = onnxslim_type_dim(type, i, &value, &param);
      if (dk < 0)
        return -1;
      if (i > 0)
        sb_puts(sb, ", ");
      if (dk == ONNXSLIM_DIM_VALUE)
        sb_printf(sb, "%" PRId64, value);
      else if (dk == ONNXSLIM_DIM_PARAM && param && param[0])
        sb_escaped(sb, param);
      else
        sb_puts(sb, "?");
    }
    sb_puts(sb, "]");
    return 0;
  case ONNXSLIM_TYPE_SEQUENCE:
    sb_puts(sb, "sequence<");
    if (sb_inner_type(sb, type) != 0)
      return -1;
    sb_puts(sb, ">");
    return 0;
  case ONNXSLIM_TYPE_OPTIONAL:
    sb_puts(sb, "optional<");
    if (sb_inner_type(sb, type) != 0)
      return -1;
    sb_puts(sb, ">");
    return 0;
  case ONNXSLIM_TYPE_MAP:
    sb_puts(sb, "map<");
    sb_dtype(sb, onnxslim_type_elem_type(type));
    sb_puts(sb, ", ");
    if (sb_inner_type(sb, type) != 0)
      return -1;
    sb_puts(sb, ">");
    return 0;
  default:
    sb_puts(sb, "?");
    return 0;
  }
}

/* Adds "name  type" rows for the graph's inputs (outputs if !inputs). */
static int add_value_rows(const char *path, const onnxslim_graph *g, int inputs, table *t)
{
  const char *what = inputs ? "input" : "output";
  size_t n = inputs ? onnxslim_graph_input_count(g) : onnxslim_graph_output_count(g);
  strbuf sb = {0};
  size_t i;

  for (i = 0; i < n; i++) {
    const onnxslim_value_info *vi =
        inputs ? onnxslim_graph_input(g, i) : onnxslim_graph_output(g, i);
    const onnxslim_type *type;
    const char *name;

    if (!vi || !(name = onnxslim_value_info_name(vi))) {
      sb_free(&sb);
      return fail_lib("%s: graph %s %zu", path, what, i);
    }
    table_add_esc(t, name);
    sb_reset(&sb);
    type = onnxslim_value_info_type(vi);
    if (!type) {
      if (onnxslim_error_last_code() != ONNXSLIM_ENOTFOUND) {
        sb_free(&sb);
        return fail_lib("%s: type of graph %s %zu", path, what, i);
      }
      sb_puts(&sb, "(no type)");
    } else if (sb_type(&sb, type) != 0) {
      sb_free(&sb);
      return fail_lib("%s: type of graph %s %zu", path, what, i);
    }
    table_add(t, sb_str(&sb));
  }
  sb_free(&sb);
  return 0;
}

/* "[64, 3, 7, 7]", "[]" for a scalar. Returns 0 or -1. */
static int sb_tensor_dims(strbuf *sb, const onnxslim_tensor *t)
{
  size_t i, rank = onnxslim_tensor_rank(t);
  sb_puts(sb, "[");
  for (i = 0; i < rank; i++) {
    int64_t d = onnxslim_tensor_dim(t, i);
    if (d < 0)
      return -1;
    sb_printf(sb, "%s%" PRId64, i ? ", " : "", d);
  }
  sb_puts(sb, "]");
  return 0;
}

/* ---- subgraphs ---------------------------------------------------------- */

typedef struct subgraph_stats {
  size_t graphs; /* subgraphs at any depth */
  size_t nodes;  /* nodes in all of them */
} subgraph_stats;

static int walk_graph(const onnxslim_graph *g, subgraph_stats *st);

static int visit_subgraph(const onnxslim_graph *g, subgraph_stats *st)
{
  st->graphs++;
  st->nodes += onnxslim_graph_node_count(g);
  return walk_graph(g, st);
}

/* Counts the subgraphs held by the node's GRAPH and GRAPHS attributes,
 * recursively. Returns 0 or -1 on a library error. */
static int walk_node(const onnxslim_node *node, subgraph_stats *st)
{
  size_t i, n = onnxslim_node_attr_count(node);

  for (i = 0; i < n; i++) {
    const onnxslim_attr *a = onnxslim_node_attr(node, i);
    int type;

    if (!a)
      return -1;
    type = onnxslim_attr_type(a);
    if (type == ONNXSLIM_ATTR_GRAPH) {
      const onnxslim_graph *sg = onnxslim_attr_graph(a);
      if (!sg || visit_subgraph(sg, st) != 0)
        return -1;
    } else if (type == ONNXSLIM_ATTR_GRAPHS) {
      size_t k, m = onnxslim_attr_list_size(a);
      for (k = 0; k < m; k++) {
        const onnxslim_graph *sg = onnxslim_attr_graphs_at(a, k);
        if (!sg || visit_subgraph(sg, st) != 0)
          return -1;
      }
    }
  }
  return 0;
}

static int walk_graph(const onnxslim_graph *g, subgraph_stats *st)
{
  size_t i, n = onnxslim_graph_node_count(g);
  for (i = 0; i < n; i++) {
    const onnxslim_node *node = onnxslim_graph_node(g, i);
    if (!node || walk_node(node, st) != 0)
      return -1;
  }
  return 0;
}

/* ---- op type histogram -------------------------------------------------- */

typedef struct op_count {
  const char *domain; /* borrowed from the model */
  const char *op_type;
  size_t count;
} op_count;

static int cmp_op_name(const void *pa, const void *pb)
{
  const op_count *a = pa, *b = pb;
  int c = strcmp(a->op_type, b->op_type);
  return c ? c : strcmp(a->domain, b->domain);
}

static int cmp_op_count(const void *pa, const void *pb)
{
  const op_count *a = pa, *b = pb;
  if (a->count != b->count)
    return a->count > b->count ? -1 : 1;
  return cmp_op_name(pa, pb);
}

/* ---- largest initializers ----------------------------------------------- */

typedef struct sized_tensor {
  const onnxslim_tensor *tensor;
  uint64_t bytes;
} sized_tensor;

/* Keeps top[] (capacity TOP_INITIALIZERS, *n used) sorted by size, largest
 * first; on equal sizes the earlier initializer stays first. */
static void top_insert(sized_tensor *top, size_t *n, const onnxslim_tensor *t, uint64_t bytes)
{
  size_t p = *n;
  while (p > 0 && top[p - 1].bytes < bytes)
    p--;
  if (p >= TOP_INITIALIZERS)
    return;
  if (*n < TOP_INITIALIZERS)
    (*n)++;
  memmove(&top[p + 1], &top[p], (*n - 1 - p) * sizeof *top);
  top[p].tensor = t;
  top[p].bytes = bytes;
}

/* ---- the summary -------------------------------------------------------- */

static int info_graph(const char *path, const onnxslim_graph *g)
{
  strbuf s = {0};
  table io_in, io_out, hist, big;
  size_t w[TABLE_MAX_COLS] = {0};
  size_t i, n_nodes, n_init, n_distinct = 0, n_top = 0, unsized = 0, external = 0;
  op_count *ops = NULL;
  subgraph_stats sub = {0, 0};
  sized_tensor top[TOP_INITIALIZERS];
  uint64_t total = 0;
  const char *name;
  int status = EXIT_FAILURE;

  table_init(&io_in, "ll");
  table_init(&io_out, "ll");
  table_init(&hist, "rl");
  table_init(&big, "lllrll");

  if (!(name = onnxslim_graph_name(g))) {
    fail_lib("%s: graph name", path);
    goto out;
  }
  field("graph", "%s", name[0] ? esc(&s, name) : "(unnamed)");

  /* inputs and outputs, aligned with each other */
  if (add_value_rows(path, g, 1, &io_in) != 0 || add_value_rows(path, g, 0, &io_out) != 0)
    goto out;
  table_measure(&io_in, w);
  table_measure(&io_out, w);
  field("inputs", "%zu", table_rows(&io_in));
  table_print(&io_in, INDENT, w);
  field("outputs", "%zu", table_rows(&io_out));
  table_print(&io_out, INDENT, w);

  /* nodes: op types and subgraphs */
  n_nodes = onnxslim_graph_node_count(g);
  ops = xmalloc_array(n_nodes, sizeof *ops);
  for (i = 0; i < n_nodes; i++) {
    const onnxslim_node *node = onnxslim_graph_node(g, i);
    if (!node || !(ops[i].op_type = onnxslim_node_op_type(node)) ||
        !(ops[i].domain = onnxslim_node_domain(node))) {
      fail_lib("%s: node %zu", path, i);
      goto out;
    }
    ops[i].count = 1;
    if (walk_node(node, &sub) != 0) {
      fail_lib("%s: subgraphs of node %zu", path, i);
      goto out;
    }
  }
  /* group equal (domain, op_type) pairs, then order by count */
  if (n_nodes > 0) {
    qsort(ops, n_nodes, sizeof *ops, cmp_op_name);
    n_distinct = 1;
    for (i = 1; i < n_nodes; i++) {
      if (cmp_op_name(&ops[i], &ops[n_distinct - 1]) == 0)
        ops[n_distinct - 1].count++;
      else
        ops[n_distinct++] = ops[i];
    }
    qsort(ops, n_distinct, sizeof *ops, cmp_op_count);
  }

  /* initializers */
  n_init = onnxslim_graph_initializer_count(g);
  for (i = 0; i < n_init; i++) {
    const onnxslim_tensor *t = onnxslim_graph_initializer(g, i);
    uint64_t bytes;
    if (!t) {
      fail_lib("%s: initializer %zu", path, i);
      goto out;
    }
    if (onnxslim_tensor_storage(t) == ONNXSLIM_STORAGE_EXTERNAL)
      external++;
    if (onnxslim_tensor_byte_size(t, &bytes) != ONNXSLIM_OK) {
      unsized++; /* STRING or unknown data type */
      continue;
    }
    total = (total > UINT64_MAX - bytes) ? UINT64_MAX : total + bytes;
    top_insert(top, &n_top, t, bytes);
  }

  /* counts */
  sb_reset(&s);
  sb_printf(&s, "%zu", n_nodes);
  if (sub.nodes > 0)
    sb_printf(&s, " (+%zu in subgraphs)", sub.nodes);
  field("nodes", "%s", sb_str(&s));
  field("initializers", "%zu", n_init);
  field("sparse_initializers", "%zu", onnxslim_graph_sparse_initializer_count(g));
  field("value_info", "%zu", onnxslim_graph_value_info_count(g));
  field("subgraphs", "%zu", sub.graphs);

  /* op type histogram */
  field("op_types", "%zu distinct", n_distinct);
  for (i = 0; i < n_distinct; i++) {
    strbuf k = {0};
    table_addf(&hist, "%zu", ops[i].count);
    sb_escaped(&k, ops[i].op_type[0] ? ops[i].op_type : "(empty)");
    if (ops[i].domain[0]) {
      sb_puts(&k, " (");
      sb_escaped(&k, ops[i].domain);
      sb_puts(&k, ")");
    }
    table_add(&hist, sb_str(&k));
    sb_free(&k);
  }
  table_print(&hist, INDENT, NULL);

  /* initializer sizes */
  sb_reset(&s);
  sb_byte_count(&s, total);
  if (unsized)
    sb_printf(&s, ", %zu of unknown size", unsized);
  if (external)
    sb_printf(&s, ", %zu external", external);
  field("initializer_bytes", "%s", sb_str(&s));
  if (n_top > 0) {
    printf("largest initializers:\n");
    for (i = 0; i < n_top; i++) {
      const onnxslim_tensor *t = top[i].tensor;
      const char *tname = onnxslim_tensor_name(t);
      char h[32];
      if (!tname) {
        fail_lib("%s: initializer name", path);
        goto out;
      }
      table_add_esc(&big, tname);
      sb_reset(&s);
      sb_dtype(&s, onnxslim_tensor_dtype(t));
      table_add(&big, sb_str(&s));
      sb_reset(&s);
      if (sb_tensor_dims(&s, t) != 0) {
        fail_lib("%s: dims of initializer '%s'", path, tname);
        goto out;
      }
      table_add(&big, sb_str(&s));
      table_addf(&big, "%" PRIu64 " byte%s", top[i].bytes, top[i].bytes == 1 ? "" : "s");
      human_size(h, sizeof h, top[i].bytes);
      sb_reset(&s);
      if (h[0])
        sb_printf(&s, "(%s)", h);
      table_add(&big, sb_str(&s));
      table_add(&big,
                onnxslim_tensor_storage(t) == ONNXSLIM_STORAGE_EXTERNAL ? "external" : "");
    }
    table_print(&big, INDENT, NULL);
  }
  status = EXIT_SUCCESS;

out:
  free(ops);
  table_free(&io_in);
  table_free(&io_out);
  table_free(&hist);
  table_free(&big);
  sb_free(&s);
  return status;
}

static int info_model(const char *path)
{
  onnxslim_model *model = NULL;
  const onnxslim_graph *g;
  const char *pn, *pv, *dom;
  strbuf s = {0}, s2 = {0};
  table tab;
  struct stat st;
  size_t i, n;
  int status = EXIT_FAILURE;

  table_init(&tab, "ll");
  if (onnxslim_model_open(&model, path, NULL) != ONNXSLIM_OK)
    return fail_lib("cannot load '%s'", path);

  field("file", "%s", esc(&s, path));
  if (stat(path, &st) == 0) {
    sb_reset(&s);
    sb_byte_count(&s, (uint64_t)st.st_size);
    field("size", "%s", sb_str(&s));
  }
  field("ir_version", "%" PRId64, onnxslim_model_ir_version(model));

  pn = onnxslim_model_producer_name(model);
  pv = onnxslim_model_producer_version(model);
  dom = onnxslim_model_domain(model);
  if (!pn || !pv || !dom) {
    fail_lib("%s: model fields", path);
    goto out;
  }
  if (pn[0] || pv[0])
    field("producer", "%s%s%s", esc(&s, pn), pn[0] && pv[0] ? " " : "", esc(&s2, pv));
  else
    field("producer", "(none)");
  field("domain", "%s", dom[0] ? esc(&s, dom) : "(none)");
  field("model_version", "%" PRId64, onnxslim_model_version(model));

  /* opset imports */
  n = onnxslim_model_opset_count(model);
  field("opset_import", "%zu", n);
  for (i = 0; i < n; i++) {
    const char *d = NULL;
    int64_t v = 0;
    if (onnxslim_model_opset(model, i, &d, &v) != ONNXSLIM_OK) {
      fail_lib("%s: opset_import %zu", path, i);
      goto out;
    }
    table_add_esc(&tab, d && d[0] ? d : "ai.onnx");
    table_addf(&tab, "%" PRId64, v);
  }
  table_print(&tab, INDENT, NULL);
  table_free(&tab);

  /* metadata */
  n = onnxslim_model_metadata_count(model);
  field("metadata_props", "%zu", n);
  for (i = 0; i < n; i++) {
    const char *k = NULL, *v = NULL;
    if (onnxslim_model_metadata(model, i, &k, &v) != ONNXSLIM_OK) {
      fail_lib("%s: metadata_props %zu", path, i);
      goto out;
    }
    printf(INDENT "%s=", esc(&s, k ? k : ""));
    printf("%s\n", esc(&s, v ? v : ""));
  }

  /* model-local functions */
  n = onnxslim_model_function_count(model);
  field("functions", "%zu", n);
  table_init(&tab, "lll");
  for (i = 0; i < n; i++) {
    const onnxslim_function *fn = onnxslim_model_function(model, i);
    const char *fname, *fdom;
    size_t nodes;
    if (!fn || !(fname = onnxslim_function_name(fn)) || !(fdom = onnxslim_function_domain(fn))) {
      fail_lib("%s: function %zu", path, i);
      goto out;
    }
    nodes = onnxslim_function_node_count(fn);
    table_add_esc(&tab, fname);
    table_add_esc(&tab, fdom);
    table_addf(&tab, "%zu node%s", nodes, nodes == 1 ? "" : "s");
  }
  table_print(&tab, INDENT, NULL);

  /* main graph */
  g = onnxslim_model_graph(model);
  if (!g) {
    if (onnxslim_error_last_code() != ONNXSLIM_ENOTFOUND) {
      fail_lib("%s: graph", path);
      goto out;
    }
    field("graph", "(none)");
    status = EXIT_SUCCESS;
    goto out;
  }
  status = info_graph(path, g);

out:
  table_free(&tab);
  sb_free(&s);
  sb_free(&s2);
  onnxslim_model_free(model);
  return status;
}

static const option_spec info_options[] = {
    {NULL, NULL, NULL, NULL},
};

static int cmd_info(const command *cmd, int argc, char **argv)
{
  const char *pos[1];
  size_t npos;
  int rc = parse_args(cmd, NULL, argc, argv, pos, 1, &npos);
  if (rc != PARSE_CONTINUE)
    return rc;
  if (npos != 1)
    return usage_error("%s: expected %s", cmd->name, cmd->args);
  return finish_stdout(info_model(pos[0]));
}

/* ======================================================================== */
/* convert                                                                  */
/* ======================================================================== */

/* Settings of `convert`, filled by the option handlers. Add fields here
 * (e.g. target opset, node selection) together with their table rows. */
typedef struct convert_settings {
  int unused; /* keeps the struct non-empty until the first option lands */
} convert_settings;

static const option_spec convert_options[] = {
    /* {"--to", "OPSET", convert_opt_to, "convert to opset OPSET"}, */
    {NULL, NULL, NULL, NULL},
};

static int convert_model(const char *in, const char *out, const convert_settings *cs)
{
  onnxslim_model *model = NULL;
  int status = EXIT_FAILURE;

  (void)cs; /* no transformations yet: load and save unchanged */
  if (onnxslim_model_open(&model, in, NULL) != ONNXSLIM_OK)
    return fail_lib("cannot load '%s'", in);
  if (onnxslim_model_save(model, out, NULL) != ONNXSLIM_OK) {
    fail_lib("cannot save '%s'", out);
    goto done;
  }
  status = EXIT_SUCCESS;
done:
  onnxslim_model_free(model);
  return status;
}

static int cmd_convert(const command *cmd, int argc, char **argv)
{
  convert_settings cs;
  const char *pos[2];
  size_t npos;
  int rc;

  memset(&cs, 0, sizeof cs);
  rc = parse_args(cmd, &cs, argc, argv, pos, 2, &npos);
  if (rc != PARSE_CONTINUE)
    return rc;
  if (npos != 2)
    return usage_error("%s: expected %s", cmd->name, cmd->args);
  return convert_model(pos[0], pos[1], &cs);
}

/* ======================================================================== */
/* check                                                                    */
/* ======================================================================== */

/* Exit status of `check` (besides EXIT_SUCCESS and EXIT_USAGE). */
#define EXIT_CHECK_PROBLEMS 1
#define EXIT_CHECK_UNREADABLE 3

static const option_spec check_options[] = {
    {NULL, NULL, NULL, NULL},
};

/* Prints "LOCATION: MESSAGE" per problem on stdout, or "MODEL: ok". */
static int check_model(const char *path)
{
  onnxslim_model *model = NULL;
  onnxslim_report *report = NULL;
  strbuf loc = {0}, msg = {0};
  size_t i, n;
  int status;

  if (onnxslim_model_open(&model, path, NULL) != ONNXSLIM_OK) {
    fail_lib("cannot load '%s'", path);
    return EXIT_CHECK_UNREADABLE;
  }
  if (onnxslim_model_check(model, 0, &report) != ONNXSLIM_OK) {
    fail_lib("cannot check '%s'", path);
    onnxslim_model_free(model);
    return EXIT_CHECK_UNREADABLE;
  }
  n = onnxslim_report_count(report);
  for (i = 0; i < n; i++) {
    const char *l = onnxslim_report_location(report, i);
    const char *m = onnxslim_report_message(report, i);
    printf("%s: ", esc(&loc, l ? l : "?"));
    printf("%s\n", esc(&msg, m ? m : "?"));
  }
  if (n == 0)
    printf("%s: ok\n", esc(&loc, path));
  status = n ? EXIT_CHECK_PROBLEMS : EXIT_SUCCESS;
  if (finish_stdout(EXIT_SUCCESS) != EXIT_SUCCESS)
    status = EXIT_CHECK_UNREADABLE;
  else if (n)
    fprintf(stderr, "%s: %s: %zu problem%s\n", progname, esc(&loc, path), n, n == 1 ? "" : "s");
  sb_free(&loc);
  sb_free(&msg);
  onnxslim_report_free(report);
  onnxslim_model_free(model);
  return status;
}

static int cmd_check(const command *cmd, int argc, char **argv)
{
  const char *pos[1];
  size_t npos;
  int rc = parse_args(cmd, NULL, argc, argv, pos, 1, &npos);
  if (rc != PARSE_CONTINUE)
    return rc;
  if (npos != 1)
    return usage_error("%s: expected %s", cmd->name, cmd->args);
  return check_model(pos[0]);
}

/* ======================================================================== */
/* main                                                                     */
/* ======================================================================== */

static const command commands[] = {
    {"info", "MODEL", "print a summary of MODEL", info_options, cmd_info},
    {"convert", "IN OUT",
     "load IN and save it as OUT; without options\n"
     "OUT is a byte-for-byte copy of IN",
     convert_options, cmd_convert},
    {"check", "MODEL",
     "check MODEL: print each problem as\n"
     "LOCATION: MESSAGE; exit 1 if there are any,\n"
     "3 if MODEL cannot be read",
     check_options, cmd_check},
    {NULL, NULL, NULL, NULL, NULL},
};

static void print_usage(FILE *f)
{
  const command *cmd;
  const option_spec *opt;

  fprintf(f,
          "Usage: %s COMMAND [OPTION...] ARG...\n"
          "       %s --version\n"
          "       %s --help\n"
          "\n"
          "Commands:\n",
          progname, progname, progname);
  for (cmd = commands; cmd->name; cmd++) {
    char head[64];
    const char *s = cmd->summary;
    snprintf(head, sizeof head, "%s %s", cmd->name, cmd->args);
    fprintf(f, "  %-20s", head);
    /* indent continuation lines of the summary */
    for (; *s; s++) {
      fputc(*s, f);
      if (*s == '\n')
        fprintf(f, "  %-20s", "");
    }
    fputc('\n', f);
    for (opt = cmd->options; opt->name; opt++) {
      char o[64];
      snprintf(o, sizeof o, "%s%s%s", opt->name, opt->metavar ? " " : "",
               opt->metavar ? opt->metavar : "");
      fprintf(f, "      %-24s%s\n", o, opt->help);
    }
  }
  fprintf(f,
          "\n"
          "Options:\n"
          "  -h, --help            print this help and exit\n"
          "      --version         print the library version and exit\n"
          "\n"
          "Exit status: 0 on success, 1 on failure, 2 on a usage error;\n"
          "check: 0 valid, 1 problems found, 2 usage error, 3 MODEL unreadable.\n");
}

int main(int argc, char **argv)
{
  const command *cmd;
  const char *arg;

  if (argc < 2)
    return usage_error("missing command");
  arg = argv[1];
  if (strcmp(arg, "--version") == 0) {
    if (argc != 2)
      return usage_error("--version takes no arguments");
    printf("%s %s\n", progname, onnxslim_version_string());
    return finish_stdout(EXIT_SUCCESS);
  }
  if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
    print_usage(stdout);
    return finish_stdout(EXIT_SUCCESS);
  }
  if (arg[0] == '-')
    return usage_error("unknown option '%s'", arg);
  for (cmd = commands; cmd->name; cmd++)
    if (strcmp(cmd->name, arg) == 0)
      return cmd->run(cmd, argc - 1, argv + 1);
  return usage_error("unknown command '%s'", arg);
}
