/*
 * onnxslim - command-line front end of libonnxslim.
 *
 *   onnxslim info MODEL          print a summary of MODEL
 *   onnxslim convert IN OUT ...  load IN, convert tensor types (--gather-to,
 *                                --to), save OUT (plainly or with external
 *                                data, and optionally a single-file copy)
 *   onnxslim split IN OUT ...    save IN with its tensors in external data
 *   onnxslim merge IN OUT        save IN with every tensor inline
 *   onnxslim fingerprint MODEL   print the storage-independent digest
 *   onnxslim check MODEL         validate MODEL, print each problem found
 *   onnxslim --version | --help | COMMAND --help
 *
 * Uses the public API (<onnxslim.h>) only.
 *
 * Exit status: 0 on success, 1 on failure, 2 on a usage error.
 * `check` exits 0 when MODEL is valid, 1 when it has problems, 2 on a usage
 * error and 3 when MODEL cannot be read (or checked).
 * Library error messages go to stderr as "onnxslim: <what>: <message>".
 */
#define _XOPEN_SOURCE 700    /* stat(), realpath() */
#define _FILE_OFFSET_BITS 64 /* st_size of files over 2 GiB on 32-bit hosts */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h> /* strcasecmp() */
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

static void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) {
    fprintf(stderr, "%s: out of memory\n", progname);
    exit(EXIT_FAILURE);
  }
  return q;
}

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) {
    fprintf(stderr, "%s: out of memory\n", progname);
    exit(EXIT_FAILURE);
  }
  return p;
}

static void *xmalloc_array(size_t count, size_t size) {
  if (size && count > SIZE_MAX / size) {
    fprintf(stderr, "%s: out of memory\n", progname);
    exit(EXIT_FAILURE);
  }
  return xmalloc(count * size);
}

static char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(xmalloc(n), s, n);
}

/* A growable NUL-terminated string. Zero-initialize before use. */
typedef struct strbuf {
  char *p;
  size_t len, cap;
} strbuf;

static void sb_reserve(strbuf *sb, size_t extra) {
  if (sb->len + extra + 1 > sb->cap) {
    size_t cap = sb->cap ? sb->cap : 64;
    while (cap < sb->len + extra + 1) cap *= 2;
    sb->p = xrealloc(sb->p, cap);
    sb->cap = cap;
  }
}

static void sb_reset(strbuf *sb) {
  sb->len = 0;
  if (sb->p) sb->p[0] = '\0';
}

static const char *sb_str(const strbuf *sb) { return sb->p ? sb->p : ""; }

static void sb_free(strbuf *sb) {
  free(sb->p);
  sb->p = NULL;
  sb->len = sb->cap = 0;
}

static void sb_putn(strbuf *sb, const char *s, size_t n) {
  sb_reserve(sb, n);
  memcpy(sb->p + sb->len, s, n);
  sb->len += n;
  sb->p[sb->len] = '\0';
}

static void sb_puts(strbuf *sb, const char *s) { sb_putn(sb, s, strlen(s)); }

static void sb_vprintf(strbuf *sb, const char *fmt, va_list ap) PRINTF_LIKE(2, 0);
static void sb_vprintf(strbuf *sb, const char *fmt, va_list ap) {
  va_list ap2;
  int n;

  va_copy(ap2, ap);
  n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0) return;
  sb_reserve(sb, (size_t)n);
  vsnprintf(sb->p + sb->len, (size_t)n + 1, fmt, ap);
  sb->len += (size_t)n;
}

static void sb_printf(strbuf *sb, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void sb_printf(strbuf *sb, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(sb, fmt, ap);
  va_end(ap);
}

/* Appends s with control characters escaped, so that names from a model
 * cannot break the layout of the output. UTF-8 passes through. */
static void sb_escaped(strbuf *sb, const char *s) {
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '\n') sb_puts(sb, "\\n");
    else if (c == '\t') sb_puts(sb, "\\t");
    else if (c == '\r') sb_puts(sb, "\\r");
    else if (c < 0x20 || c == 0x7f) sb_printf(sb, "\\x%02x", c);
    else sb_putn(sb, s, 1);
  }
}

/* Escaped copy of s in *sb (reset first); returns the text. */
static const char *esc(strbuf *sb, const char *s) {
  sb_reset(sb);
  sb_escaped(sb, s);
  return sb_str(sb);
}

/* Width on a terminal, counting one column per UTF-8 code point. */
static size_t display_width(const char *s) {
  size_t w = 0;
  for (; *s; s++)
    if (((unsigned char)*s & 0xC0) != 0x80) w++;
  return w;
}

/* "37.5 KiB" etc. for n >= 1024, else "" (callers print bytes anyway). */
static void human_size(char *buf, size_t bufsize, uint64_t n) {
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
static void sb_byte_count(strbuf *sb, uint64_t n) {
  char h[32];
  human_size(h, sizeof h, n);
  sb_printf(sb, "%" PRIu64 " byte%s", n, n == 1 ? "" : "s");
  if (h[0]) sb_printf(sb, " (%s)", h);
}

/* ======================================================================== */
/* aligned tables                                                           */
/* ======================================================================== */

#define TABLE_MAX_COLS 12
/* Columns wider than this are not padded further; long cells just overflow. */
#define TABLE_MAX_WIDTH 48
/* Tables whose first column is a tensor name stay aligned up to this width. */
#define NAME_MAX_WIDTH 80

typedef struct table {
  const char *align; /* one 'l' or 'r' per column */
  size_t ncols;
  size_t max_width; /* cells wider than this do not widen their column */
  char **cells;
  size_t ncells, cap;
} table;

static void table_init(table *t, const char *align) {
  memset(t, 0, sizeof *t);
  t->align = align;
  t->ncols = strlen(align);
  t->max_width = TABLE_MAX_WIDTH;
}

static void table_add(table *t, const char *text) {
  if (t->ncells == t->cap) {
    t->cap = t->cap ? t->cap * 2 : 16;
    t->cells = xrealloc(t->cells, t->cap * sizeof *t->cells);
  }
  t->cells[t->ncells++] = xstrdup(text);
}

static void table_addf(table *t, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void table_addf(table *t, const char *fmt, ...) {
  strbuf sb = {0};
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(&sb, fmt, ap);
  va_end(ap);
  table_add(t, sb_str(&sb));
  sb_free(&sb);
}

static void table_add_esc(table *t, const char *s) {
  strbuf sb = {0};
  table_add(t, esc(&sb, s));
  sb_free(&sb);
}

static size_t table_rows(const table *t) { return t->ncols ? t->ncells / t->ncols : 0; }

/* Widens w[] (TABLE_MAX_COLS entries) to fit the table's cells. Measuring
 * several tables into one w[] aligns them with each other. */
static void table_measure(const table *t, size_t *w) {
  size_t i;
  for (i = 0; i < t->ncells; i++) {
    size_t c = i % t->ncols, dw = display_width(t->cells[i]);
    if (dw > t->max_width) dw = t->max_width;
    if (dw > w[c]) w[c] = dw;
  }
}

static void table_print(const table *t, const char *indent, const size_t *widths) {
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
      if (c > 0) sb_puts(&line, "  ");
      if (t->align[c] == 'r')
        while (pad--) sb_putn(&line, " ", 1);
      sb_puts(&line, cell);
      if (t->align[c] != 'r')
        while (pad--) sb_putn(&line, " ", 1);
    }
    while (line.len > 0 && line.p[line.len - 1] == ' ') line.p[--line.len] = '\0';
    puts(sb_str(&line));
  }
  sb_free(&line);
}

static void table_free(table *t) {
  size_t i;
  for (i = 0; i < t->ncells; i++) free(t->cells[i]);
  free(t->cells);
  memset(t, 0, sizeof *t);
}

/* ======================================================================== */
/* errors and output                                                        */
/* ======================================================================== */

/* Reports a failed library call: "onnxslim: <what>: <last error>".
 * Returns EXIT_FAILURE. Call it right after the failing call. */
static int fail_lib(const char *fmt, ...) PRINTF_LIKE(1, 2);
static int fail_lib(const char *fmt, ...) {
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

/* Loads the model at `path` for a command. '-' is refused (models are
 * mapped, not read from a pipe). On failure reports why - with a hint when
 * the bytes are not ONNX protobuf at all - and returns the exit status;
 * returns EXIT_SUCCESS with *model set otherwise. */
static int open_model(onnxslim_model **model, const char *path) {
  int rc;
  *model = NULL;
  if (strcmp(path, "-") == 0) {
    fflush(stdout);
    fprintf(stderr, "%s: '-' (standard input or output) is not supported: name a file\n", progname);
    return EXIT_USAGE;
  }
  rc = onnxslim_model_open(model, path, NULL);
  if (rc == ONNXSLIM_OK) return EXIT_SUCCESS;
  fail_lib("cannot load '%s'", path);
  if (rc == ONNXSLIM_EPARSE)
    fprintf(stderr,
            "%s: hint: '%s' is not a well-formed ONNX protobuf file: is this an ONNX model?\n",
            progname, path);
  return EXIT_FAILURE;
}

/* Makes sure everything written to stdout arrived; turns status into the
 * exit status of the program. */
static int finish_stdout(int status) {
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
 *   {"--min-size", "BYTES", opt_min_size, "convert only tensors of at least BYTES"},
 * (help text may span lines with '\n').
 * Both "--name VALUE" and "--name=VALUE" are accepted for options taking a
 * value. A handler returns 0, or prints why the value is bad and returns -1
 * (a usage error).
 */
typedef int (*option_handler)(void *ctx, const char *value);

typedef struct option_spec {
  const char *name;    /* "--gather-to"; NULL ends the table */
  const char *metavar; /* name of the value in the help, NULL: takes none */
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
static void print_command_usage(FILE *f, const command *cmd);

/* The command being run (for usage errors), NULL before one is chosen. */
static const command *current_command;

/* Prints "onnxslim: MESSAGE", the usage line of the current command (or of
 * the program) and where to find more; returns EXIT_USAGE. */
static int usage_error(const char *fmt, ...) PRINTF_LIKE(1, 2);
static int usage_error(const char *fmt, ...) {
  va_list ap;
  fflush(stdout);
  fprintf(stderr, "%s: ", progname);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  if (current_command)
    fprintf(stderr, "Usage: %s %s [OPTION...] %s\nTry '%s %s --help' for more information.\n",
            progname, current_command->name, current_command->args, progname,
            current_command->name);
  else
    fprintf(stderr, "Usage: %s COMMAND [OPTION...] ARG...\nTry '%s --help' for more information.\n",
            progname, progname);
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
                      size_t max_pos, size_t *npos) {
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
        print_command_usage(stdout, cmd);
        return finish_stdout(EXIT_SUCCESS);
      }
      for (opt = cmd->options; opt->name; opt++)
        if (strlen(opt->name) == namelen && strncmp(opt->name, arg, namelen) == 0) break;
      if (!opt->name) return usage_error("%s: unknown option '%.*s'", cmd->name, (int)namelen, arg);
      if (opt->metavar) {
        if (arg[namelen] == '=') value = arg + namelen + 1;
        else if (i + 1 < argc) value = argv[++i];
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
static void field(const char *label, const char *fmt, ...) {
  va_list ap;
  char l[LABEL_WIDTH + 2];
  snprintf(l, sizeof l, "%s:", label);
  printf("%-*s", LABEL_WIDTH, l);
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  putchar('\n');
}

static void sb_dtype(strbuf *sb, int32_t dtype) {
  const char *name = onnxslim_dtype_name(dtype);
  if (strcmp(name, "UNKNOWN") != 0) sb_puts(sb, name);
  else sb_printf(sb, "dtype(%" PRId32 ")", dtype);
}

static int sb_type(strbuf *sb, const onnxslim_type *type);

/* The inner type of a sequence, optional or map; "?" when absent.
 * Returns 0 or -1 on a library error. */
static int sb_inner_type(strbuf *sb, const onnxslim_type *type) {
  const onnxslim_type *inner = onnxslim_type_inner(type);
  if (!inner) {
    if (onnxslim_error_last_code() != ONNXSLIM_ENOTFOUND) return -1;
    sb_puts(sb, "?");
    return 0;
  }
  return sb_type(sb, inner);
}

/* "FLOAT[batch, 3, ?, 224]", "INT64[]" (scalar), "FLOAT (no shape)",
 * "sequence<...>", "map<INT64, FLOAT>", "optional<...>".
 * Returns 0 or -1 on a library error. */
static int sb_type(strbuf *sb, const onnxslim_type *type) {
  int kind = onnxslim_type_kind(type);
  size_t i, rank;

  switch (kind) {
  case ONNXSLIM_TYPE_TENSOR:
  case ONNXSLIM_TYPE_SPARSE_TENSOR:
    if (kind == ONNXSLIM_TYPE_SPARSE_TENSOR) sb_puts(sb, "sparse ");
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
      if (dk < 0) return -1;
      if (i > 0) sb_puts(sb, ", ");
      if (dk == ONNXSLIM_DIM_VALUE) sb_printf(sb, "%" PRId64, value);
      else if (dk == ONNXSLIM_DIM_PARAM && param && param[0]) sb_escaped(sb, param);
      else sb_puts(sb, "?");
    }
    sb_puts(sb, "]");
    return 0;
  case ONNXSLIM_TYPE_SEQUENCE:
    sb_puts(sb, "sequence<");
    if (sb_inner_type(sb, type) != 0) return -1;
    sb_puts(sb, ">");
    return 0;
  case ONNXSLIM_TYPE_OPTIONAL:
    sb_puts(sb, "optional<");
    if (sb_inner_type(sb, type) != 0) return -1;
    sb_puts(sb, ">");
    return 0;
  case ONNXSLIM_TYPE_MAP:
    sb_puts(sb, "map<");
    sb_dtype(sb, onnxslim_type_elem_type(type));
    sb_puts(sb, ", ");
    if (sb_inner_type(sb, type) != 0) return -1;
    sb_puts(sb, ">");
    return 0;
  default: sb_puts(sb, "?"); return 0;
  }
}

/* Adds "name  type" rows for the graph's inputs (outputs if !inputs). */
static int add_value_rows(const char *path, const onnxslim_graph *g, int inputs, table *t) {
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
static int sb_tensor_dims(strbuf *sb, const onnxslim_tensor *t) {
  size_t i, rank = onnxslim_tensor_rank(t);
  sb_puts(sb, "[");
  for (i = 0; i < rank; i++) {
    int64_t d = onnxslim_tensor_dim(t, i);
    if (d < 0) return -1;
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

static int visit_subgraph(const onnxslim_graph *g, subgraph_stats *st) {
  st->graphs++;
  st->nodes += onnxslim_graph_node_count(g);
  return walk_graph(g, st);
}

/* Counts the subgraphs held by the node's GRAPH and GRAPHS attributes,
 * recursively. Returns 0 or -1 on a library error. */
static int walk_node(const onnxslim_node *node, subgraph_stats *st) {
  size_t i, n = onnxslim_node_subgraph_count(node);

  for (i = 0; i < n; i++) {
    const onnxslim_graph *sg = onnxslim_node_subgraph(node, i);
    if (!sg || visit_subgraph(sg, st) != 0) return -1;
  }
  return 0;
}

static int walk_graph(const onnxslim_graph *g, subgraph_stats *st) {
  size_t i, n = onnxslim_graph_node_count(g);
  for (i = 0; i < n; i++) {
    const onnxslim_node *node = onnxslim_graph_node(g, i);
    if (!node || walk_node(node, st) != 0) return -1;
  }
  return 0;
}

/* ---- op type histogram -------------------------------------------------- */

typedef struct op_count {
  const char *domain; /* borrowed from the model */
  const char *op_type;
  size_t count;
} op_count;

static int cmp_op_name(const void *pa, const void *pb) {
  const op_count *a = pa, *b = pb;
  int c = strcmp(a->op_type, b->op_type);
  return c ? c : strcmp(a->domain, b->domain);
}

static int cmp_op_count(const void *pa, const void *pb) {
  const op_count *a = pa, *b = pb;
  if (a->count != b->count) return a->count > b->count ? -1 : 1;
  return cmp_op_name(pa, pb);
}

/* ---- largest initializers ----------------------------------------------- */

typedef struct sized_tensor {
  const onnxslim_tensor *tensor;
  uint64_t bytes;
} sized_tensor;

/* Keeps top[] (capacity TOP_INITIALIZERS, *n used) sorted by size, largest
 * first; on equal sizes the earlier initializer stays first. */
static void top_insert(sized_tensor *top, size_t *n, const onnxslim_tensor *t, uint64_t bytes) {
  size_t p = *n;
  while (p > 0 && top[p - 1].bytes < bytes) p--;
  if (p >= TOP_INITIALIZERS) return;
  if (*n < TOP_INITIALIZERS) (*n)++;
  memmove(&top[p + 1], &top[p], (*n - 1 - p) * sizeof *top);
  top[p].tensor = t;
  top[p].bytes = bytes;
}

/* ---- the summary -------------------------------------------------------- */

static int info_graph(const char *path, const onnxslim_graph *g) {
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
  big.max_width = NAME_MAX_WIDTH;

  if (!(name = onnxslim_graph_name(g))) {
    fail_lib("%s: graph name", path);
    goto out;
  }
  field("graph", "%s", name[0] ? esc(&s, name) : "(unnamed)");

  /* inputs and outputs, aligned with each other */
  if (add_value_rows(path, g, 1, &io_in) != 0 || add_value_rows(path, g, 0, &io_out) != 0) goto out;
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
      if (cmp_op_name(&ops[i], &ops[n_distinct - 1]) == 0) ops[n_distinct - 1].count++;
      else ops[n_distinct++] = ops[i];
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
    if (onnxslim_tensor_storage(t) == ONNXSLIM_STORAGE_EXTERNAL) external++;
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
  if (sub.nodes > 0) sb_printf(&s, " (+%zu in subgraphs)", sub.nodes);
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
  if (unsized) sb_printf(&s, ", %zu of unknown size", unsized);
  if (external) sb_printf(&s, ", %zu external", external);
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
      if (h[0]) sb_printf(&s, "(%s)", h);
      table_add(&big, sb_str(&s));
      table_add(&big, onnxslim_tensor_storage(t) == ONNXSLIM_STORAGE_EXTERNAL ? "external" : "");
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

static int info_model(const char *path) {
  onnxslim_model *model = NULL;
  const onnxslim_graph *g;
  const char *pn, *pv, *dom;
  strbuf s = {0}, s2 = {0};
  table tab;
  struct stat st;
  size_t i, n;
  int status = EXIT_FAILURE;

  status = open_model(&model, path);
  if (status != EXIT_SUCCESS) return status;
  status = EXIT_FAILURE;
  table_init(&tab, "ll");

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
  else field("producer", "(none)");
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

static int cmd_info(const command *cmd, int argc, char **argv) {
  const char *pos[1];
  size_t npos;
  int rc = parse_args(cmd, NULL, argc, argv, pos, 1, &npos);
  if (rc != PARSE_CONTINUE) return rc;
  if (npos != 1) return usage_error("%s: expected %s", cmd->name, cmd->args);
  return finish_stdout(info_model(pos[0]));
}

/* ======================================================================== */
/* convert, split, merge                                                    */
/* ======================================================================== */

/* Settings of `convert`, `split` and `merge`, filled by the option handlers
 * and checked by convert_settings_check() once all options are read. */
typedef struct convert_settings {
  /* dtype conversion */
  int32_t gather_to;   /* --gather-to type, 0: none */
  int32_t to;          /* --to type, 0: none */
  const char **select; /* --select specs (borrowed from argv) */
  size_t n_select;
  const char **exclude; /* --exclude specs (borrowed from argv) */
  size_t n_exclude;
  uint64_t min_size;       /* --min-size */
  int policy;              /* ONNXSLIM_POLICY_*, 0: not given */
  unsigned int conv_flags; /* ONNXSLIM_CONVERT_* */
  /* the first option given that needs --gather-to or --to, and one that
   * needs --external-data (for the usage error) */
  const char *needs_conversion;
  const char *needs_external;
  int report; /* --report */
  /* saving */
  int external;   /* --external-data (always set for split and merge) */
  int per_tensor; /* --per-tensor */
  int mode;       /* ONNXSLIM_LAYOUT_* layout of the external save */
  uint64_t threshold, align;
  const char *location;
  unsigned int ext_flags;  /* ONNXSLIM_SAVE_* flags */
  const char *also_single; /* --also-single-file PATH */
  int toposort;            /* --toposort */
} convert_settings;

static void convert_settings_init(convert_settings *cs) {
  memset(cs, 0, sizeof *cs);
  cs->threshold = ONNXSLIM_SAVE_DEFAULT_THRESHOLD;
  cs->align = ONNXSLIM_SAVE_DEFAULT_ALIGN;
}

/* Prints "onnxslim: OPTION: MESSAGE" for a bad option value; returns -1. */
static int bad_value(const char *option, const char *fmt, ...) PRINTF_LIKE(2, 3);
static int bad_value(const char *option, const char *fmt, ...) {
  va_list ap;
  fflush(stdout);
  fprintf(stderr, "%s: %s: ", progname, option);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  return -1;
}

/* Parses a byte count: decimal digits with an optional suffix K, M or G
 * (upper or lower case; powers of 1024). Returns 0, or -1 after printing
 * why the value is bad. */
static int parse_bytes(const char *option, const char *s, uint64_t *out) {
  const char *p = s;
  uint64_t v = 0;
  unsigned int shift = 0;

  if (*p < '0' || *p > '9')
    return bad_value(option, "'%s' is not a byte count (digits, optionally followed by K, M or G)",
                     s);
  for (; *p >= '0' && *p <= '9'; p++) {
    unsigned int d = (unsigned int)(*p - '0');
    if (v > (UINT64_MAX - d) / 10) return bad_value(option, "'%s' is too large", s);
    v = v * 10 + d;
  }
  switch (*p) {
  case '\0': break;
  case 'K':
  case 'k': shift = 10; break;
  case 'M':
  case 'm': shift = 20; break;
  case 'G':
  case 'g': shift = 30; break;
  default:
    return bad_value(option, "'%s' is not a byte count (digits, optionally followed by K, M or G)",
                     s);
  }
  if (shift) {
    if (p[1] != '\0')
      return bad_value(option,
                       "'%s' is not a byte count (digits, optionally followed by K, M or G)", s);
    if (v > (UINT64_MAX >> shift)) return bad_value(option, "'%s' is too large", s);
    v <<= shift;
  }
  *out = v;
  return 0;
}

typedef struct name_value {
  const char *name;
  int value;
} name_value;

static const name_value float_types[] = {
    {"bf16", ONNXSLIM_DTYPE_BFLOAT16},
    {"bfloat16", ONNXSLIM_DTYPE_BFLOAT16},
    {"fp16", ONNXSLIM_DTYPE_FLOAT16},
    {"float16", ONNXSLIM_DTYPE_FLOAT16},
    {"fp32", ONNXSLIM_DTYPE_FLOAT},
    {"float32", ONNXSLIM_DTYPE_FLOAT},
    {"float", ONNXSLIM_DTYPE_FLOAT},
    {"fp64", ONNXSLIM_DTYPE_DOUBLE},
    {"float64", ONNXSLIM_DTYPE_DOUBLE},
    {"double", ONNXSLIM_DTYPE_DOUBLE},
    {NULL, 0},
};

static const name_value policies[] = {
    {"cast-after-gather", ONNXSLIM_POLICY_CAST_AFTER_GATHER},
    {"cast-before", ONNXSLIM_POLICY_CAST_BEFORE},
    {"storage-only", ONNXSLIM_POLICY_STORAGE_ONLY},
    {NULL, 0},
};

/* Looks s up in table (case-insensitive); returns 0 or -1. */
static int lookup_name(const name_value *names, const char *s, int *value) {
  for (; names->name; names++)
    if (strcasecmp(names->name, s) == 0) {
      *value = names->value;
      return 0;
    }
  return -1;
}

static int opt_gather_to(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  int t;
  if (lookup_name(float_types, value, &t) != 0 ||
      (t != ONNXSLIM_DTYPE_BFLOAT16 && t != ONNXSLIM_DTYPE_FLOAT16))
    return bad_value("--gather-to", "unknown type '%s' (expected bf16 or fp16)", value);
  cs->gather_to = t;
  return 0;
}

static int opt_to(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  int t;
  if (lookup_name(float_types, value, &t) != 0)
    return bad_value("--to", "unknown type '%s' (expected bf16, fp16, fp32 or fp64)", value);
  cs->to = t;
  return 0;
}

static int opt_select(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  if (!value[0]) return bad_value("--select", "empty selection");
  cs->select = xrealloc((void *)cs->select, (cs->n_select + 1) * sizeof *cs->select);
  cs->select[cs->n_select++] = value;
  return 0;
}

static int opt_exclude(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  if (!value[0]) return bad_value("--exclude", "empty selection");
  cs->exclude = xrealloc((void *)cs->exclude, (cs->n_exclude + 1) * sizeof *cs->exclude);
  cs->exclude[cs->n_exclude++] = value;
  if (!cs->needs_conversion) cs->needs_conversion = "--exclude";
  return 0;
}

static int opt_min_size(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  if (!cs->needs_conversion) cs->needs_conversion = "--min-size";
  return parse_bytes("--min-size", value, &cs->min_size);
}

static int opt_policy(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  if (lookup_name(policies, value, &cs->policy) != 0)
    return bad_value(
        "--policy", "unknown policy '%s' (expected cast-after-gather, cast-before or storage-only)",
        value);
  if (!cs->needs_conversion) cs->needs_conversion = "--policy";
  return 0;
}

static int opt_round(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  if (strcasecmp(value, "nearest") == 0) cs->conv_flags &= ~ONNXSLIM_CONVERT_TRUNCATE;
  else if (strcasecmp(value, "truncate") == 0) cs->conv_flags |= ONNXSLIM_CONVERT_TRUNCATE;
  else return bad_value("--round", "unknown rounding '%s' (expected nearest or truncate)", value);
  if (!cs->needs_conversion) cs->needs_conversion = "--round";
  return 0;
}

static int opt_saturate(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  (void)value;
  cs->conv_flags |= ONNXSLIM_CONVERT_SATURATE;
  if (!cs->needs_conversion) cs->needs_conversion = "--saturate";
  return 0;
}

static int opt_flush_subnormals(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  (void)value;
  cs->conv_flags |= ONNXSLIM_CONVERT_FLUSH_SUBNORMALS;
  if (!cs->needs_conversion) cs->needs_conversion = "--flush-subnormals";
  return 0;
}

static int opt_report(void *ctx, const char *value) {
  (void)value;
  ((convert_settings *)ctx)->report = 1;
  return 0;
}

static int opt_external_data(void *ctx, const char *value) {
  (void)value;
  ((convert_settings *)ctx)->external = 1;
  return 0;
}

static int opt_threshold(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  if (!cs->needs_external) cs->needs_external = "--threshold";
  return parse_bytes("--threshold", value, &cs->threshold);
}

static int opt_align(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  uint64_t a;
  if (!cs->needs_external) cs->needs_external = "--align";
  if (parse_bytes("--align", value, &a) != 0) return -1;
  if (a == 0 || (a & (a - 1)) != 0)
    return bad_value("--align", "%s is not a power of two (1, 2, 4, ... 4K ...)", value);
  cs->align = a;
  return 0;
}

static int opt_location(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  if (!cs->needs_external) cs->needs_external = "--location";
  if (!value[0]) return bad_value("--location", "empty file name");
  cs->location = value;
  return 0;
}

static int opt_per_tensor(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  (void)value;
  if (!cs->needs_external) cs->needs_external = "--per-tensor";
  cs->per_tensor = 1;
  return 0;
}

static int opt_checksum(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  (void)value;
  if (!cs->needs_external) cs->needs_external = "--checksum";
  cs->ext_flags |= ONNXSLIM_SAVE_CHECKSUM;
  return 0;
}

static int opt_force_shape_inputs(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  (void)value;
  if (!cs->needs_external) cs->needs_external = "--force-shape-inputs";
  cs->ext_flags |= ONNXSLIM_SAVE_FORCE_SHAPE_INPUTS;
  return 0;
}

static int opt_also_single_file(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  if (!value[0]) return bad_value("--also-single-file", "empty path");
  cs->also_single = value;
  return 0;
}

static int opt_toposort(void *ctx, const char *value) {
  (void)value;
  ((convert_settings *)ctx)->toposort = 1;
  return 0;
}

static int opt_constants(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  (void)value;
  cs->ext_flags |= ONNXSLIM_SAVE_CONSTANTS;
  if (!cs->needs_external) cs->needs_external = "--constants";
  return 0;
}

static int opt_allow_large(void *ctx, const char *value) {
  (void)value;
  ((convert_settings *)ctx)->ext_flags |= ONNXSLIM_SAVE_ALLOW_LARGE;
  return 0;
}

#define OPT_THRESHOLD                                                                 \
  {                                                                                   \
    "--threshold", "BYTES", opt_threshold,                                            \
        "tensors of at least BYTES go to external data\n(default 1K; 0: all of them)" \
  }
#define OPT_ALIGN                                                                  \
  {                                                                                \
    "--align", "BYTES", opt_align,                                                 \
        "align data offsets to BYTES (a power of two;\ndefault 4K; 1: no padding)" \
  }
#define OPT_LOCATION                                                                             \
  {                                                                                              \
    "--location", "FILE", opt_location,                                                          \
        "data file, relative to OUT's directory\n(default: OUT's file name + .data); when\nOUT " \
        "exists and reads that name, OUT_1.bin\nfor OUT.bin (see Files below)"                   \
  }
#define OPT_PER_TENSOR \
  { "--per-tensor", NULL, opt_per_tensor, "one data file per tensor instead of one file" }
#define OPT_CHECKSUM \
  { "--checksum", NULL, opt_checksum, "write each tensor's SHA-1 checksum key" }
#define OPT_FORCE_SHAPE_INPUTS                              \
  {                                                         \
    "--force-shape-inputs", NULL, opt_force_shape_inputs,   \
        "move small integer shape inputs (Reshape shape,\n" \
        "Unsqueeze axes, ...) out too; they stay inline\n"  \
        "by default: onnxruntime cannot load them"          \
  }
#define OPT_CONSTANTS                                                         \
  {                                                                           \
    "--constants", NULL, opt_constants,                                       \
        "move the tensors of Constant nodes out too\n(by the same threshold)" \
  }
#define OPT_TOPOSORT                                                  \
  {                                                                   \
    "--toposort", NULL, opt_toposort,                                 \
        "sort the nodes topologically first (stable;\nsubgraphs too)" \
  }
#define OPT_ALLOW_LARGE                                                                         \
  {                                                                                             \
    "--allow-large", NULL, opt_allow_large,                                                     \
        "allow a model file over 2 GiB (OUT or the\nsingle-file copy; most readers refuse one)" \
  }
#define OPT_REPORT(what) \
  { "--report", NULL, opt_report, what }

static const option_spec convert_options[] = {
    {"--gather-to", "TYPE", opt_gather_to,
     "the published recipe: store each Gather table\n"
     "(input 0 of a Gather) as TYPE (bf16 or fp16)\n"
     "and add a Cast back after each Gather"},
    {"--to", "TYPE", opt_to,
     "convert floating-point tensors to TYPE (bf16,\n"
     "fp16, fp32, fp64): the --select ones, or all;\n"
     "bf16 needs a model at opset 13 or later"},
    {"--select", "SPEC", opt_select,
     "with --to: a tensor name, a glob (* ? [...]),\n"
     "or op:TYPE[:INDEX] (tensors that nodes of that\n"
     "op type read, at that input); repeatable; a\n"
     "SPEC matching no convertible tensor is an error"},
    {"--exclude", "SPEC", opt_exclude,
     "never convert the tensors SPEC matches (same\n"
     "syntax as --select); repeatable"},
    {"--min-size", "BYTES", opt_min_size, "convert only tensors of at least BYTES"},
    {"--policy", "POLICY", opt_policy,
     "how the graph is fixed up: cast-after-gather\n"
     "(default: Cast after a Gather, before any other\n"
     "consumer), cast-before, storage-only (no Cast:\n"
     "only the stored type changes; where a node\n"
     "other than a Cast reads the tensor, runtimes\n"
     "refuse the model, and a warning says so)"},
    {"--round", "MODE", opt_round,
     "nearest (default, ties to even) or truncate\n"
     "(to bf16 only; the published recipe truncates)"},
    {"--saturate", NULL, opt_saturate,
     "overflow gives the largest finite value, not Inf\n"
     "(values that become Inf, saturate or flush to 0\n"
     "are always reported on stderr)"},
    {"--flush-subnormals", NULL, opt_flush_subnormals, "subnormal results become zero"},
    OPT_REPORT("print what was converted (per tensor: types,\n"
               "elements, bytes, Inf/saturated/flushed/NaN\n"
               "counts, max errors), where tensors went, and\n"
               "the files written"),
    {"--external-data", NULL, opt_external_data,
     "save OUT with tensor data in an external file;\n"
     "the options below up to --force-shape-inputs\n"
     "need it"},
    OPT_THRESHOLD,
    OPT_ALIGN,
    OPT_LOCATION,
    OPT_PER_TENSOR,
    OPT_CHECKSUM,
    OPT_FORCE_SHAPE_INPUTS,
    OPT_CONSTANTS,
    {"--also-single-file", "PATH", opt_also_single_file,
     "also save the model with every tensor inline\nto PATH"},
    OPT_ALLOW_LARGE,
    OPT_TOPOSORT,
    {NULL, NULL, NULL, NULL},
};

static const option_spec split_options[] = {
    OPT_THRESHOLD,
    OPT_ALIGN,
    OPT_LOCATION,
    OPT_PER_TENSOR,
    OPT_CHECKSUM,
    OPT_FORCE_SHAPE_INPUTS,
    OPT_CONSTANTS,
    OPT_ALLOW_LARGE,
    OPT_TOPOSORT,
    OPT_REPORT("print where tensors went and the files written"),
    {NULL, NULL, NULL, NULL},
};

static const option_spec merge_options[] = {
    OPT_ALLOW_LARGE,
    OPT_TOPOSORT,
    OPT_REPORT("print the files written"),
    {NULL, NULL, NULL, NULL},
};

/* Checks the combination of options of `convert` once all are read.
 * Returns PARSE_CONTINUE or EXIT_USAGE (reported). */
static int convert_settings_check(const command *cmd, convert_settings *cs, const char *out) {
  if (cs->gather_to && cs->to)
    return usage_error("%s: --gather-to and --to exclude each other", cmd->name);
  if (cs->n_select && !cs->to)
    return usage_error("%s: --select needs --to%s", cmd->name,
                       cs->gather_to ? " (--gather-to selects the Gather tables itself)" : "");
  if (cs->needs_conversion && !cs->gather_to && !cs->to)
    return usage_error("%s: %s needs --gather-to or --to", cmd->name, cs->needs_conversion);
  if ((cs->conv_flags & ONNXSLIM_CONVERT_TRUNCATE) &&
      (cs->gather_to ? cs->gather_to : cs->to) != ONNXSLIM_DTYPE_BFLOAT16)
    return usage_error("%s: --round truncate applies to conversions to bf16 only", cmd->name);
  if (cs->needs_external && !cs->external)
    return usage_error("%s: %s needs --external-data", cmd->name, cs->needs_external);
  if (cs->per_tensor && cs->location)
    return usage_error("%s: --location and --per-tensor exclude each other", cmd->name);
  if (cs->also_single && strcmp(cs->also_single, out) == 0)
    return usage_error("%s: --also-single-file must name another file than OUT", cmd->name);
  if (cs->external)
    cs->mode = cs->per_tensor ? ONNXSLIM_LAYOUT_PER_TENSOR : ONNXSLIM_LAYOUT_ONE_FILE;
  return PARSE_CONTINUE;
}

/* ---- reports -------------------------------------------------------------- */

static uint64_t add_sat(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

/* The conversion report as an aligned table with a totals row, on stdout. */
static int print_convert_report(const onnxslim_convert_report *rep) {
  size_t i, n = onnxslim_convert_report_count(rep);
  onnxslim_convert_stats total = ONNXSLIM_CONVERT_STATS_INIT;
  uint64_t total_before = 0, total_after = 0;
  char h1[32], h2[32];
  strbuf s = {0};
  table t;
  int status = EXIT_FAILURE;

  table_init(&t, "llrrrrrrrr");
  t.max_width = NAME_MAX_WIDTH;
  printf("converted %zu tensor%s:\n", n, n == 1 ? "" : "s");
  if (n == 0) {
    status = EXIT_SUCCESS;
    goto out;
  }
  table_add(&t, "tensor");
  table_add(&t, "from -> to");
  table_add(&t, "elements");
  table_add(&t, "bytes before -> after");
  table_add(&t, "to_inf");
  table_add(&t, "saturated");
  table_add(&t, "flushed");
  table_add(&t, "nan");
  table_add(&t, "max_abs_err");
  table_add(&t, "max_rel_err");
  for (i = 0; i < n; i++) {
    const char *name = onnxslim_convert_report_name(rep, i);
    int32_t from = onnxslim_convert_report_from(rep, i), to = onnxslim_convert_report_to(rep, i);
    uint64_t before = 0, after = 0;
    onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT;

    if (!name || onnxslim_convert_report_bytes_before(rep, i, &before) != ONNXSLIM_OK ||
        onnxslim_convert_report_bytes_after(rep, i, &after) != ONNXSLIM_OK ||
        onnxslim_convert_report_add_stats(rep, i, &st) != ONNXSLIM_OK) {
      fail_lib("conversion report entry %zu", i);
      goto out;
    }
    table_add_esc(&t, name ? name : "?");
    sb_reset(&s);
    sb_dtype(&s, from);
    sb_puts(&s, " -> ");
    sb_dtype(&s, to);
    table_add(&t, sb_str(&s));
    table_addf(&t, "%" PRIu64, st.count);
    table_addf(&t, "%" PRIu64 " -> %" PRIu64, before, after);
    table_addf(&t, "%" PRIu64, st.to_inf);
    table_addf(&t, "%" PRIu64, st.saturated);
    table_addf(&t, "%" PRIu64, st.flushed);
    table_addf(&t, "%" PRIu64, st.nan);
    table_addf(&t, "%.3g", st.max_abs_error);
    table_addf(&t, "%.3g", st.max_rel_error);
    total.count = add_sat(total.count, st.count);
    total.to_inf = add_sat(total.to_inf, st.to_inf);
    total.saturated = add_sat(total.saturated, st.saturated);
    total.flushed = add_sat(total.flushed, st.flushed);
    total.nan = add_sat(total.nan, st.nan);
    if (st.max_abs_error > total.max_abs_error) total.max_abs_error = st.max_abs_error;
    if (st.max_rel_error > total.max_rel_error) total.max_rel_error = st.max_rel_error;
    total_before = add_sat(total_before, before);
    total_after = add_sat(total_after, after);
  }
  table_addf(&t, "total (%zu)", n);
  table_add(&t, "");
  table_addf(&t, "%" PRIu64, total.count);
  table_addf(&t, "%" PRIu64 " -> %" PRIu64, total_before, total_after);
  table_addf(&t, "%" PRIu64, total.to_inf);
  table_addf(&t, "%" PRIu64, total.saturated);
  table_addf(&t, "%" PRIu64, total.flushed);
  table_addf(&t, "%" PRIu64, total.nan);
  table_addf(&t, "%.3g", total.max_abs_error);
  table_addf(&t, "%.3g", total.max_rel_error);
  table_print(&t, INDENT, NULL);
  human_size(h1, sizeof h1, total_before);
  human_size(h2, sizeof h2, total_after);
  printf("tensor bytes: %" PRIu64 "%s%s%s -> %" PRIu64 "%s%s%s", total_before, h1[0] ? " (" : "",
         h1, h1[0] ? ")" : "", total_after, h2[0] ? " (" : "", h2, h2[0] ? ")" : "");
  if (total_after < total_before) printf(", %" PRIu64 " saved", total_before - total_after);
  putchar('\n');
  status = EXIT_SUCCESS;
out:
  table_free(&t);
  sb_free(&s);
  return status;
}

/*
 * What an external-data save did. With verbose (--report), on stdout: where
 * the tensors went and each tensor kept inline for being a shape input.
 * Otherwise one line on stderr when shape inputs were kept inline.
 */
static int print_external_report(const onnxslim_save_report *rep, int mode, int verbose) {
  size_t i, n = onnxslim_save_report_count(rep);
  size_t written = 0, below = 0, shape = 0, nolayout = 0, files = 0;
  uint64_t bytes = 0;
  const char *first_loc = NULL, *prev_loc = NULL;
  strbuf s = {0};
  char h[32];

  for (i = 0; i < n; i++) {
    const char *loc = onnxslim_save_report_location(rep, i);
    int st = onnxslim_save_report_placement(rep, i);
    uint64_t len = 0;
    if (st < 0 || onnxslim_save_report_length(rep, i, &len) != ONNXSLIM_OK)
      return fail_lib("external data report entry %zu", i);
    switch (st) {
    case ONNXSLIM_PLACEMENT_EXTERNAL:
      written++;
      bytes = add_sat(bytes, len);
      if (loc && (!prev_loc || strcmp(prev_loc, loc) != 0))
        files++; /* one file: all the same; per tensor: one each */
      if (!first_loc) first_loc = loc;
      prev_loc = loc;
      break;
    case ONNXSLIM_PLACEMENT_BELOW_THRESHOLD: below++; break;
    case ONNXSLIM_PLACEMENT_SHAPE_INPUT: shape++; break;
    default: nolayout++; break;
    }
  }
  if (!verbose) {
    if (shape > 0) {
      fflush(stdout);
      fprintf(stderr,
              "%s: kept %zu shape-input tensor%s inline (onnxruntime cannot load them from "
              "external data; --force-shape-inputs moves them out)\n",
              progname, shape, shape == 1 ? "" : "s");
    }
    return EXIT_SUCCESS;
  }
  if (mode == ONNXSLIM_LAYOUT_INLINE) {
    printf("every tensor inline (%zu considered)\n", n);
    return EXIT_SUCCESS;
  }
  human_size(h, sizeof h, bytes);
  printf("external data: %zu tensor%s, %" PRIu64 " bytes%s%s%s", written, written == 1 ? "" : "s",
         bytes, h[0] ? " (" : "", h, h[0] ? ")" : "");
  if (files == 1 && first_loc) printf(" in '%s'\n", esc(&s, first_loc));
  else printf(" in %zu files\n", files);
  printf(
      "kept inline: %zu tensor%s (%zu below the threshold, %zu shape input%s, %zu without a "
      "byte layout)\n",
      below + shape + nolayout, below + shape + nolayout == 1 ? "" : "s", below, shape,
      shape == 1 ? "" : "s", nolayout);
  if (shape > 0) {
    printf(
        "shape inputs kept inline (onnxruntime cannot load them from external data; "
        "--force-shape-inputs moves them out):\n");
    for (i = 0; i < n; i++) {
      const char *name = onnxslim_save_report_name(rep, i);
      int st = onnxslim_save_report_placement(rep, i);
      if (!name || st < 0) {
        sb_free(&s);
        return fail_lib("external data report entry %zu", i);
      }
      if (st == ONNXSLIM_PLACEMENT_SHAPE_INPUT) printf(INDENT "%s\n", esc(&s, name ? name : "?"));
    }
  }
  sb_free(&s);
  return EXIT_SUCCESS;
}

/* A written file for the --report list: "path  N bytes  (h)". */
static void add_file_row(table *t, const char *path) {
  struct stat st;
  char h[32];
  table_add_esc(t, path);
  if (stat(path, &st) != 0) {
    table_add(t, "?");
    table_add(t, "");
    return;
  }
  table_addf(t, "%" PRIu64 " bytes", (uint64_t)st.st_size);
  human_size(h, sizeof h, (uint64_t)st.st_size);
  if (h[0]) table_addf(t, "(%s)", h);
  else table_add(t, "");
}

/* Directory part of path with its trailing '/', or "" (borrowed into *sb). */
static const char *dir_of(strbuf *sb, const char *path) {
  const char *slash = strrchr(path, '/');
  sb_reset(sb);
  if (slash) sb_putn(sb, path, (size_t)(slash - path) + 1);
  return sb_str(sb);
}

/* Lists the files just written: OUT, its data files, the single file. */
static void print_files(const char *out, const onnxslim_save_report *rep, const char *also_single) {
  size_t i, n = onnxslim_save_report_count(rep), files = 0;
  uint64_t data_bytes = 0;
  const char *prev = NULL;
  strbuf dir = {0}, path = {0};
  table t;

  table_init(&t, "lrl");
  add_file_row(&t, out);
  dir_of(&dir, out);
  for (i = 0; i < n; i++) {
    const char *loc = onnxslim_save_report_location(rep, i);
    struct stat sbuf;
    if (onnxslim_save_report_placement(rep, i) != ONNXSLIM_PLACEMENT_EXTERNAL || !loc ||
        (prev && strcmp(prev, loc) == 0))
      continue;
    prev = loc;
    sb_reset(&path);
    sb_puts(&path, sb_str(&dir));
    sb_puts(&path, loc);
    files++;
    if (files <= 3) add_file_row(&t, sb_str(&path));
    if (stat(sb_str(&path), &sbuf) == 0) data_bytes = add_sat(data_bytes, (uint64_t)sbuf.st_size);
  }
  if (files > 3) {
    char h[32];
    human_size(h, sizeof h, data_bytes);
    table_addf(&t, "... %zu data files in all", files);
    table_addf(&t, "%" PRIu64 " bytes", data_bytes);
    if (h[0]) table_addf(&t, "(%s)", h);
    else table_add(&t, "");
  }
  if (also_single) add_file_row(&t, also_single);
  printf("files written:\n");
  table_print(&t, INDENT, NULL);
  table_free(&t);
  sb_free(&dir);
  sb_free(&path);
}

/* ---- the work ------------------------------------------------------------- */

/* A library refusal of an option value (a selection spec, a location) is
 * a usage error; anything else is a failure. */
static int lib_status(int rc) { return rc == ONNXSLIM_EINVAL ? EXIT_USAGE : EXIT_FAILURE; }

/* ---- warnings about a conversion ------------------------------------------- */

#define WARN_WORST 5 /* tensors named in a warning */

typedef struct damaged {
  const char *name;
  onnxslim_convert_stats st;
} damaged;

/* Worst first: most values overflowed (to Inf or saturated), then most flushed. */
static int cmp_damage(const void *pa, const void *pb) {
  const damaged *a = pa, *b = pb;
  uint64_t oa = add_sat(a->st.to_inf, a->st.saturated), ob = add_sat(b->st.to_inf, b->st.saturated);
  if (oa != ob) return oa < ob ? 1 : -1;
  if (a->st.flushed != b->st.flushed) return a->st.flushed < b->st.flushed ? 1 : -1;
  return strcmp(a->name, b->name);
}

/* "N became +-Inf, N saturated to +-MAX, N flushed to 0": the nonzero parts. */
static void sb_damage(strbuf *sb, const onnxslim_convert_stats *st, const char *max) {
  const char *sep = "";
  if (st->to_inf) {
    sb_printf(sb, "%" PRIu64 " became +-Inf", st->to_inf);
    sep = ", ";
  }
  if (st->saturated) {
    sb_printf(sb, "%s%" PRIu64 " saturated to +-%s", sep, st->saturated, max);
    sep = ", ";
  }
  if (st->flushed) sb_printf(sb, "%s%" PRIu64 " flushed to 0", sep, st->flushed);
}

/*
 * On stderr, whether or not --report was given: the tensors in which the
 * conversion did more than round - finite values that became Inf, were
 * saturated or were flushed to zero - the worst first, and what to do
 * about it. Nothing when every value was only rounded.
 */
static void warn_damage(const onnxslim_convert_report *rep, const convert_settings *cs,
                        int32_t to) {
  size_t i, n = onnxslim_convert_report_count(rep), nd = 0;
  damaged *d = xmalloc_array(n ? n : 1, sizeof *d);
  onnxslim_convert_stats total = ONNXSLIM_CONVERT_STATS_INIT;
  const char *max = to == ONNXSLIM_DTYPE_FLOAT16    ? "65504"
                    : to == ONNXSLIM_DTYPE_BFLOAT16 ? "3.39e38"
                                                    : "3.40e38";
  strbuf sb = {0}, name = {0};

  for (i = 0; i < n; i++) {
    const char *nm = onnxslim_convert_report_name(rep, i);
    onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT;
    if (!nm || onnxslim_convert_report_add_stats(rep, i, &st) != ONNXSLIM_OK ||
        !(st.to_inf || st.saturated || st.flushed))
      continue;
    d[nd].name = nm ? nm : "?";
    d[nd++].st = st;
    total.to_inf = add_sat(total.to_inf, st.to_inf);
    total.saturated = add_sat(total.saturated, st.saturated);
    total.flushed = add_sat(total.flushed, st.flushed);
  }
  if (nd) {
    qsort(d, nd, sizeof *d, cmp_damage);
    fflush(stdout);
    sb_damage(&sb, &total, max);
    fprintf(stderr,
            "%s: warning: converting to %s changed values beyond rounding in %zu tensor%s: %s\n",
            progname, onnxslim_dtype_name(to), nd, nd == 1 ? "" : "s", sb_str(&sb));
    for (i = 0; i < nd && i < WARN_WORST; i++) {
      sb_reset(&sb);
      sb_damage(&sb, &d[i].st, max);
      fprintf(stderr, "  %s (%" PRIu64 " value%s): %s\n", esc(&name, d[i].name), d[i].st.count,
              d[i].st.count == 1 ? "" : "s", sb_str(&sb));
    }
    if (nd > WARN_WORST)
      fprintf(stderr, "  and %zu more tensor%s (--report lists every tensor)\n", nd - WARN_WORST,
              nd - WARN_WORST == 1 ? "" : "s");
    fprintf(
        stderr,
        "%s: the model's outputs may change a lot: %s--exclude SPEC keeps tensors as they are%s\n",
        progname,
        total.to_inf && !(cs->conv_flags & ONNXSLIM_CONVERT_SATURATE)
            ? "--saturate keeps overflowing values finite, "
            : "",
        to == ONNXSLIM_DTYPE_FLOAT16 ? " (bf16 has FP32's range)" : "");
  }
  free(d);
  sb_free(&sb);
  sb_free(&name);
}

static int is_onnx_op(const onnxslim_node *n, const char *op) {
  const char *dom = onnxslim_node_domain(n);
  return strcmp(onnxslim_node_op_type(n), op) == 0 && (!dom[0] || strcmp(dom, "ai.onnx") == 0);
}

/* Is value read in g by Casts only (and not a graph output)? */
static int only_casts_read(const onnxslim_graph *g, const char *value) {
  size_t i, nc = onnxslim_graph_consumer_count(g, value);
  for (i = 0; i < onnxslim_graph_output_count(g); i++)
    if (strcmp(onnxslim_value_info_name(onnxslim_graph_output(g, i)), value) == 0) return 0;
  for (i = 0; i < nc; i++)
    if (!is_onnx_op(onnxslim_graph_consumer(g, value, i), "Cast")) return 0;
  return nc > 0;
}

/* A node that reads a storage-only tensor in a way no type check accepts. */
typedef struct storage_finding {
  size_t tensors;            /* converted tensors with such a reader */
  const char *name;          /* the first one, */
  const onnxslim_node *node; /* its reader */
  size_t input;              /* at this input */
  int gather;                /* the reader is a Gather passing the new type on */
} storage_finding;

/* Whether `node` may read the converted `value`: as a Cast's input, or as
 * the table of a Gather whose output only Casts read. *input receives the
 * input index of the first use. */
static int reader_accepts(const onnxslim_graph *g, const onnxslim_node *node, const char *value,
                          size_t *input) {
  size_t k, uses = 0, first = 0, ni = onnxslim_node_input_count(node);
  for (k = 0; k < ni; k++)
    if (strcmp(onnxslim_node_input(node, k), value) == 0 && uses++ == 0) first = k;
  *input = first;
  if (uses == 0) /* a capture by a subgraph: the subgraph sees the new type */
    return 0;
  if (is_onnx_op(node, "Cast")) return 1;
  return is_onnx_op(node, "Gather") && uses == 1 && first == 0 &&
         onnxslim_node_output_count(node) >= 1 && only_casts_read(g, onnxslim_node_output(node, 0));
}

static int cmp_cstr(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Counts value (defined in g) in f when it is one of the converted tensors
 * (names, sorted) and some node of g reads it without accepting its new type. */
static void check_storage_only(const onnxslim_graph *g, const char *value, const char **names,
                               size_t n, storage_finding *f) {
  size_t j, input;
  if (!bsearch(&value, names, n, sizeof *names, cmp_cstr)) return;
  for (j = 0; j < onnxslim_graph_consumer_count(g, value); j++) {
    const onnxslim_node *c = onnxslim_graph_consumer(g, value, j);
    if (reader_accepts(g, c, value, &input)) continue;
    if (f->tensors++ == 0) {
      f->name = value;
      f->node = c;
      f->input = input;
      f->gather = input == 0 && is_onnx_op(c, "Gather");
    }
    return;
  }
}

/* Checks the initializers and Constants of g and of its subgraphs. */
static void scan_storage_only(const onnxslim_graph *g, const char **names, size_t n,
                              storage_finding *f) {
  size_t i, k;
  for (i = 0; i < onnxslim_graph_initializer_count(g); i++)
    check_storage_only(g, onnxslim_tensor_name(onnxslim_graph_initializer(g, i)), names, n, f);
  for (i = 0; i < onnxslim_graph_node_count(g); i++) {
    const onnxslim_node *node = onnxslim_graph_node(g, i);
    if (is_onnx_op(node, "Constant") && onnxslim_node_output_count(node) == 1)
      check_storage_only(g, onnxslim_node_output(node, 0), names, n, f);
    for (k = 0; k < onnxslim_node_subgraph_count(node); k++)
      scan_storage_only(onnxslim_node_subgraph(node, k), names, n, f);
  }
}

/* --policy storage-only: warns on stderr when a converted tensor is read by a
 * node that still expects the original type (any op but a Cast, or a Gather
 * whose output only Casts read): runtimes refuse such a model. */
static void warn_storage_only(const onnxslim_model *model, const onnxslim_convert_report *rep) {
  size_t i, n = onnxslim_convert_report_count(rep);
  const char **names = xmalloc_array(n ? n : 1, sizeof *names);
  storage_finding f = {0, NULL, NULL, 0, 0};
  int32_t from = 0, to = 0;
  strbuf a = {0}, b = {0}, c = {0};

  for (i = 0; i < n; i++) {
    names[i] = onnxslim_convert_report_name(rep, i);
    if (!names[i]) {
      names[i] = "";
      continue;
    }
    from = onnxslim_convert_report_from(rep, i);
    to = onnxslim_convert_report_to(rep, i);
  }
  qsort(names, n, sizeof *names, cmp_cstr);
  if (n) scan_storage_only(onnxslim_model_graph(model), names, n, &f);
  if (f.tensors) {
    const char *nn = onnxslim_node_name(f.node);
    const char *was = onnxslim_dtype_name(from);
    const char *now = onnxslim_dtype_name(to);
    sb_printf(&c, "%s%s%s", esc(&a, onnxslim_node_op_type(f.node)), nn[0] ? " " : "",
              nn[0] ? esc(&b, nn) : "");
    sb_reset(&a);
    sb_printf(&a, "'%s'", f.name);
    fflush(stdout);
    fprintf(stderr,
            "%s: warning: --policy storage-only: %zu converted tensor%s now %s %s read where %s is "
            "expected; runtimes such as onnxruntime refuse such a model\n",
            progname, f.tensors, f.tensors == 1 ? "" : "s", now, f.tensors == 1 ? "is" : "are",
            was);
    if (f.gather)
      fprintf(stderr, "  e.g. %s: %s passes its %s rows on to nodes other than Cast\n",
              esc(&b, sb_str(&a)), sb_str(&c), now);
    else
      fprintf(stderr, "  e.g. %s at input %zu of %s\n", esc(&b, sb_str(&a)), f.input, sb_str(&c));
    fprintf(stderr,
            "%s: the default policy (cast-after-gather) or cast-before adds the Casts "
            "that keep the model runnable\n",
            progname);
  }
  free(names);
  sb_free(&a);
  sb_free(&b);
  sb_free(&c);
}

/* Applies --gather-to / --to to the loaded model; *rep receives the report.
 * The report always has its statistics: the warnings need them. */
static int apply_conversion(onnxslim_model *model, const char *in, const convert_settings *cs,
                            onnxslim_convert_report **rep) {
  static const char *const gather_tables[] = {"op:Gather:0"};
  int policy = cs->policy ? cs->policy : ONNXSLIM_POLICY_CAST_AFTER_GATHER;
  int32_t to = cs->gather_to ? cs->gather_to : cs->to;
  int rc;

  if (cs->gather_to && policy == ONNXSLIM_POLICY_CAST_AFTER_GATHER && !cs->n_exclude) {
    rc = onnxslim_convert_gather_tables(rep, model, cs->gather_to, cs->min_size, cs->conv_flags);
  } else {
    onnxslim_convert_options o;
    if (onnxslim_convert_options_init(&o, ONNXSLIM_CONVERT_OPTIONS_VERSION) != ONNXSLIM_OK)
      return fail_lib("conversion options");
    o.to = to;
    o.policy = policy;
    o.flags = cs->conv_flags;
    o.min_size = cs->min_size;
    if (cs->gather_to) {
      o.select = gather_tables;
      o.n_select = 1;
    } else {
      o.select = cs->select;
      o.n_select = cs->n_select;
    }
    o.exclude = cs->exclude;
    o.n_exclude = cs->n_exclude;
    rc = onnxslim_convert_model(rep, model, &o);
  }
  if (rc != ONNXSLIM_OK) {
    fail_lib("cannot convert '%s'", in);
    return lib_status(rc);
  }
  if (onnxslim_convert_report_count(*rep) == 0) {
    fflush(stdout);
    fprintf(stderr, "%s: no tensor of '%s' matched the selection; nothing converted\n", progname,
            in);
  }
  warn_damage(*rep, cs, to);
  if (policy == ONNXSLIM_POLICY_STORAGE_ONLY) warn_storage_only(model, *rep);
  return EXIT_SUCCESS;
}

/* After a save refused for its size (over 2 GiB): how to write it anyway. */
static void hint_allow_large(int rc) {
  if (rc == ONNXSLIM_ELIMIT) fprintf(stderr, "%s: --allow-large writes it anyway\n", progname);
}

static int save_external(const onnxslim_model *model, const char *path, int mode,
                         const convert_settings *cs, onnxslim_save_report **rep) {
  onnxslim_save_options eo;
  int rc;
  if (onnxslim_save_options_init(&eo, ONNXSLIM_SAVE_OPTIONS_VERSION) != ONNXSLIM_OK)
    return fail_lib("external data options");
  eo.layout = mode;
  eo.flags = cs->ext_flags;
  if (mode == ONNXSLIM_LAYOUT_INLINE) {
    eo.flags &= ONNXSLIM_SAVE_ALLOW_LARGE | ONNXSLIM_SAVE_NO_FSYNC;
  } else {
    eo.size_threshold = cs->threshold;
    eo.align = cs->align;
    eo.location = cs->location;
  }
  rc = onnxslim_save(rep, model, path, &eo);
  if (rc != ONNXSLIM_OK) {
    fail_lib("cannot save '%s'", path);
    hint_allow_large(rc);
    return lib_status(rc);
  }
  return EXIT_SUCCESS;
}

/* ---- output paths ---------------------------------------------------------- */

/* Directory part of path, "." when it has none (malloc'ed). */
static char *dir_part(const char *path) {
  const char *slash = strrchr(path, '/');
  char *d;
  if (!slash) return xstrdup(".");
  if (slash == path) return xstrdup("/");
  d = xmalloc((size_t)(slash - path) + 1);
  memcpy(d, path, (size_t)(slash - path));
  d[slash - path] = '\0';
  return d;
}

/* path with its directory resolved (the file itself may not exist yet), or a
 * copy of path when the directory does not resolve (malloc'ed). */
static char *canonical(const char *path) {
  char *dir = dir_part(path), *real = realpath(dir, NULL), *out;
  const char *slash = strrchr(path, '/');
  const char *name = slash ? slash + 1 : path;
  free(dir);
  if (!real) return xstrdup(path);
  out = xmalloc(strlen(real) + strlen(name) + 2);
  sprintf(out, "%s/%s", real, name);
  free(real);
  return out;
}

/* Do a and b name the same file? By device and inode when both exist (so
 * spellings, symlinks and hard links count), else by resolved spelling. */
static int same_file(const char *a, const char *b) {
  struct stat sa, sb;
  char *ca, *cb;
  int same;
  if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  ca = canonical(a);
  cb = canonical(b);
  same = strcmp(ca, cb) == 0;
  free(ca);
  free(cb);
  return same;
}

/* The data file a one-file external save of OUT writes: OUT's directory
 * joined with `location`, or OUT + ".data" (malloc'ed). */
static char *data_file_path(const char *out, const char *location) {
  const char *slash = strrchr(out, '/');
  size_t dirlen = slash ? (size_t)(slash - out) + 1 : 0;
  char *p;
  if (!location) {
    p = xmalloc(strlen(out) + 6);
    sprintf(p, "%s.data", out);
    return p;
  }
  p = xmalloc(dirlen + strlen(location) + 1);
  memcpy(p, out, dirlen);
  strcpy(p + dirlen, location);
  return p;
}

/* Before the model is loaded: an output that cannot be written ('-', a
 * directory) is a usage error, found before any work is done. */
static int check_output_name(const char *path, const char *what) {
  struct stat st;
  if (strcmp(path, "-") == 0)
    return usage_error("%s: '-' (standard output) is not supported: name a file", what);
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
    return usage_error("%s '%s' is a directory: name the file to write", what, path);
  return PARSE_CONTINUE;
}

/* No output may land on a file the loaded model reads: the model file or
 * one of its external data files (compared by device and inode). */
static int check_not_input(const onnxslim_model *model, const char *in, const char *path,
                           const char *what) {
  size_t idx;
  if (onnxslim_model_file_find(model, path, &idx) != ONNXSLIM_OK) return PARSE_CONTINUE;
  if (idx == 0)
    return usage_error("refusing to write %s '%s': it is the input model '%s' itself", what, path,
                       in);
  return usage_error("refusing to write %s '%s': it is '%s', external data of the input '%s'", what,
                     path, onnxslim_model_file(model, idx), in);
}

/* Where convert/split/merge write, decided once the model is loaded. */
typedef struct save_plan {
  int mode;           /* ONNXSLIM_LAYOUT_*; ONNXSLIM_LAYOUT_AS_LOADED (0): a plain save */
  unsigned int flags; /* extra ONNXSLIM_SAVE_* flags */
  char *data;         /* the one data file written, NULL if none */
  int relocated;      /* external data moved next to OUT (see below) */
} save_plan;

/*
 * Every model written must load on its own. A plain save keeps external
 * references, which are relative to the input's directory: when OUT is in
 * another directory, the tensors that are external now go to a new data
 * file next to OUT instead (OUT's name + ".data"), keeping the storage form.
 * Then no output may be an input, nor two outputs the same file.
 */
static int plan_save(const onnxslim_model *model, const char *in, const char *out,
                     const convert_settings *cs, save_plan *sp) {
  int rc;
  memset(sp, 0, sizeof *sp);
  sp->mode = cs->mode;
  if (!sp->mode && onnxslim_model_file_count(model) > 1) {
    char *din = dir_part(in), *dout = dir_part(out);
    if (!same_file(din, dout)) {
      sp->mode = ONNXSLIM_LAYOUT_ONE_FILE;
      sp->flags = ONNXSLIM_SAVE_KEEP_STORAGE;
      sp->relocated = 1;
    }
    free(din);
    free(dout);
  }
  if (sp->mode == ONNXSLIM_LAYOUT_ONE_FILE)
    sp->data = data_file_path(out, sp->relocated ? NULL : cs->location);
  rc = check_not_input(model, in, out, "OUT");
  if (rc == PARSE_CONTINUE && sp->data) rc = check_not_input(model, in, sp->data, "the data file");
  if (rc == PARSE_CONTINUE && cs->also_single)
    rc = check_not_input(model, in, cs->also_single, "--also-single-file");
  if (rc == PARSE_CONTINUE && sp->data && same_file(sp->data, out))
    rc = usage_error("the data file '%s' would be OUT itself", sp->data);
  if (rc == PARSE_CONTINUE && cs->also_single && same_file(cs->also_single, out))
    rc = usage_error("--also-single-file '%s' is OUT itself: name another file", cs->also_single);
  if (rc == PARSE_CONTINUE && cs->also_single && sp->data && same_file(cs->also_single, sp->data))
    rc = usage_error("--also-single-file '%s' is OUT's data file: name another file",
                     cs->also_single);
  return rc;
}

/*
 * convert, split and merge: load IN, sort it if asked, apply the conversion
 * once, save OUT as planned by plan_save(), then the single-file variant,
 * then print the reports. Nothing is written before every output path was
 * checked.
 */
static int convert_model(const char *in, const char *out, const convert_settings *cs) {
  onnxslim_model *model = NULL;
  onnxslim_convert_report *crep = NULL;
  onnxslim_save_report *erep = NULL;
  save_plan sp = {0, 0, NULL, 0};
  int status, rc;

  status = check_output_name(out, "OUT");
  if (status == PARSE_CONTINUE && cs->also_single)
    status = check_output_name(cs->also_single, "--also-single-file");
  if (status != PARSE_CONTINUE) return status;
  status = open_model(&model, in);
  if (status != EXIT_SUCCESS) return status;
  status = plan_save(model, in, out, cs, &sp);
  if (status != PARSE_CONTINUE) goto done;
  status = EXIT_FAILURE;
  if (cs->toposort && onnxslim_cleanup_toposort(onnxslim_model_graph(model),
                                                ONNXSLIM_CLEANUP_RECURSIVE) != ONNXSLIM_OK) {
    fail_lib("cannot sort '%s'", in);
    goto done;
  }
  if ((cs->gather_to || cs->to) && (rc = apply_conversion(model, in, cs, &crep)) != EXIT_SUCCESS) {
    status = rc;
    goto done;
  }
  if (sp.mode) {
    convert_settings eff = *cs;
    eff.ext_flags |= sp.flags;
    rc = save_external(model, out, sp.mode, &eff, &erep);
    if (rc != EXIT_SUCCESS) {
      status = rc;
      goto done;
    }
  } else {
    onnxslim_save_options so;
    if (onnxslim_save_options_init(&so, ONNXSLIM_SAVE_OPTIONS_VERSION) != ONNXSLIM_OK) {
      fail_lib("save options");
      goto done;
    }
    if (cs->ext_flags & ONNXSLIM_SAVE_ALLOW_LARGE) so.flags |= ONNXSLIM_SAVE_ALLOW_LARGE;
    if ((rc = onnxslim_save(NULL, model, out, &so)) != ONNXSLIM_OK) {
      fail_lib("cannot save '%s'", out);
      hint_allow_large(rc);
      status = lib_status(rc);
      goto done;
    }
  }
  if (cs->also_single && (rc = save_external(model, cs->also_single, ONNXSLIM_LAYOUT_INLINE, cs,
                                             NULL)) != EXIT_SUCCESS) {
    status = rc;
    goto done;
  }
  if (sp.relocated && erep) {
    size_t i, moved = 0;
    const char *where = NULL;
    for (i = 0; i < onnxslim_save_report_count(erep); i++) {
      const char *loc = onnxslim_save_report_location(erep, i);
      if (onnxslim_save_report_placement(erep, i) == ONNXSLIM_PLACEMENT_EXTERNAL) {
        moved++;
        if (!where) where = loc;
      }
    }
    if (moved) {
      /* the library's name for the file: OUT.data, or OUT_1.data when the
       * OUT being replaced reads OUT.data */
      char *d = dir_part(out);
      fflush(stdout);
      fprintf(stderr,
              "%s: %zu tensor%s of '%s' in external data written to '%s%s%s', next to OUT, so "
              "that OUT loads on its own\n",
              progname, moved, moved == 1 ? "" : "s", in, strrchr(out, '/') ? d : "",
              strrchr(out, '/') && strcmp(d, "/") ? "/" : "", where ? where : "?");
      free(d);
    }
  }

  if (cs->report && crep && print_convert_report(crep) != EXIT_SUCCESS) goto done;
  if (erep && print_external_report(erep, sp.mode, cs->report) != EXIT_SUCCESS) goto done;
  if (cs->report) print_files(out, erep, cs->also_single);
  status = finish_stdout(EXIT_SUCCESS);
done:
  free(sp.data);
  onnxslim_convert_report_free(crep);
  onnxslim_save_report_free(erep);
  onnxslim_model_free(model);
  return status;
}

static int cmd_convert(const command *cmd, int argc, char **argv) {
  convert_settings cs;
  const char *pos[2];
  size_t npos;
  int rc;

  convert_settings_init(&cs);
  rc = parse_args(cmd, &cs, argc, argv, pos, 2, &npos);
  if (rc == PARSE_CONTINUE && npos != 2) rc = usage_error("%s: expected %s", cmd->name, cmd->args);
  if (rc == PARSE_CONTINUE) rc = convert_settings_check(cmd, &cs, pos[1]);
  if (rc == PARSE_CONTINUE) rc = convert_model(pos[0], pos[1], &cs);
  free((void *)cs.select);
  free((void *)cs.exclude);
  return rc;
}

static int cmd_split(const command *cmd, int argc, char **argv) {
  convert_settings cs;
  const char *pos[2];
  size_t npos;
  int rc;

  convert_settings_init(&cs);
  cs.external = 1;
  rc = parse_args(cmd, &cs, argc, argv, pos, 2, &npos);
  if (rc != PARSE_CONTINUE) return rc;
  if (npos != 2) return usage_error("%s: expected %s", cmd->name, cmd->args);
  rc = convert_settings_check(cmd, &cs, pos[1]);
  if (rc != PARSE_CONTINUE) return rc;
  return convert_model(pos[0], pos[1], &cs);
}

static int cmd_merge(const command *cmd, int argc, char **argv) {
  convert_settings cs;
  const char *pos[2];
  size_t npos;
  int rc;

  convert_settings_init(&cs);
  rc = parse_args(cmd, &cs, argc, argv, pos, 2, &npos);
  if (rc != PARSE_CONTINUE) return rc;
  if (npos != 2) return usage_error("%s: expected %s", cmd->name, cmd->args);
  cs.mode = ONNXSLIM_LAYOUT_INLINE;
  return convert_model(pos[0], pos[1], &cs);
}

/* ======================================================================== */
/* fingerprint                                                              */
/* ======================================================================== */

static const option_spec fingerprint_options[] = {
    {NULL, NULL, NULL, NULL},
};

static int cmd_fingerprint(const command *cmd, int argc, char **argv) {
  onnxslim_model *model = NULL;
  char digest[33];
  const char *pos[1];
  size_t npos;
  int rc = parse_args(cmd, NULL, argc, argv, pos, 1, &npos);

  if (rc != PARSE_CONTINUE) return rc;
  if (npos != 1) return usage_error("%s: expected %s", cmd->name, cmd->args);
  rc = open_model(&model, pos[0]);
  if (rc != EXIT_SUCCESS) return rc;
  if (onnxslim_fingerprint(digest, ONNXSLIM_FINGERPRINT_SIZE, model) != ONNXSLIM_OK) {
    rc = fail_lib("cannot fingerprint '%s'", pos[0]);
    onnxslim_model_free(model);
    return rc;
  }
  onnxslim_model_free(model);
  puts(digest);
  return finish_stdout(EXIT_SUCCESS);
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
static int check_model(const char *path) {
  onnxslim_model *model = NULL;
  onnxslim_check_report *report = NULL;
  strbuf loc = {0}, msg = {0};
  size_t i, n;
  int status;

  status = open_model(&model, path);
  if (status != EXIT_SUCCESS) return status == EXIT_USAGE ? status : EXIT_CHECK_UNREADABLE;
  if (onnxslim_check(&report, model, 0) != ONNXSLIM_OK) {
    fail_lib("cannot check '%s'", path);
    onnxslim_model_free(model);
    return EXIT_CHECK_UNREADABLE;
  }
  n = onnxslim_check_report_count(report);
  {
    size_t order = 0;
    for (i = 0; i < n; i++) order += onnxslim_check_report_code(report, i) == ONNXSLIM_CHECK_ORDER;
    if (order)
      printf(
          "%s: the graph is not topologically sorted (%zu use%s before definition); "
          "'%s convert --toposort %s OUT' sorts it\n",
          esc(&loc, path), order, order == 1 ? "" : "s", progname, esc(&msg, path));
  }
  for (i = 0; i < n; i++) {
    const char *l = onnxslim_check_report_location(report, i);
    const char *m = onnxslim_check_report_message(report, i);
    printf("%s: ", esc(&loc, l ? l : "?"));
    printf("%s\n", esc(&msg, m ? m : "?"));
  }
  if (n == 0) printf("%s: ok\n", esc(&loc, path));
  status = n ? EXIT_CHECK_PROBLEMS : EXIT_SUCCESS;
  if (finish_stdout(EXIT_SUCCESS) != EXIT_SUCCESS) status = EXIT_CHECK_UNREADABLE;
  else if (n)
    fprintf(stderr, "%s: %s: %zu problem%s\n", progname, esc(&loc, path), n, n == 1 ? "" : "s");
  sb_free(&loc);
  sb_free(&msg);
  onnxslim_check_report_free(report);
  onnxslim_model_free(model);
  return status;
}

static int cmd_check(const command *cmd, int argc, char **argv) {
  const char *pos[1];
  size_t npos;
  int rc = parse_args(cmd, NULL, argc, argv, pos, 1, &npos);
  if (rc != PARSE_CONTINUE) return rc;
  if (npos != 1) return usage_error("%s: expected %s", cmd->name, cmd->args);
  return check_model(pos[0]);
}

/* ======================================================================== */
/* main                                                                     */
/* ======================================================================== */

static const command commands[] = {
    {"info", "MODEL", "print a summary of MODEL", info_options, cmd_info},
    {"convert", "IN OUT",
     "load IN, convert tensor types, save it as OUT;\n"
     "without options OUT is a byte-for-byte copy of IN.\n"
     "The published recipe (BF16 embedding table, all\n"
     "tensors in OUT.bin, plus a single-file copy):\n"
     "  convert IN OUT --gather-to bf16 --round truncate\n"
     "    --external-data --threshold 0 --location OUT.bin\n"
     "    --also-single-file OUT_single.onnx",
     convert_options, cmd_convert},
    {"split", "IN OUT",
     "save IN as OUT with its tensors in external data\n"
     "(no type change)",
     split_options, cmd_split},
    {"merge", "IN OUT", "save IN as OUT with every tensor inline", merge_options, cmd_merge},
    {"fingerprint", "MODEL",
     "print MODEL's 32-hex-digit digest, which does not\n"
     "depend on where tensor bytes are stored",
     fingerprint_options, cmd_fingerprint},
    {"check", "MODEL",
     "check MODEL: print each problem as\n"
     "LOCATION: MESSAGE; exit 1 if there are any,\n"
     "3 if MODEL cannot be read",
     check_options, cmd_check},
    {NULL, NULL, NULL, NULL, NULL},
};

/* Prints s, indenting the lines after the first by indent columns. */
static void print_indented(FILE *f, const char *s, int indent) {
  for (; *s; s++) {
    fputc(*s, f);
    if (*s == '\n') fprintf(f, "%*s", indent, "");
  }
  fputc('\n', f);
}

#define SUMMARY_COL 22
#define OPTION_COL 30

static void print_command(FILE *f, const command *cmd) {
  const option_spec *opt;
  char head[64];

  snprintf(head, sizeof head, "%s %s", cmd->name, cmd->args);
  fprintf(f, "  %-*s", SUMMARY_COL - 2, head);
  if (strlen(head) > SUMMARY_COL - 3) fprintf(f, "\n%*s", SUMMARY_COL, "");
  print_indented(f, cmd->summary, SUMMARY_COL);
  for (opt = cmd->options; opt->name; opt++) {
    char o[64];
    snprintf(o, sizeof o, "%s%s%s", opt->name, opt->metavar ? " " : "",
             opt->metavar ? opt->metavar : "");
    fprintf(f, "      %-*s", OPTION_COL - 6, o);
    if (strlen(o) > OPTION_COL - 7) fprintf(f, "\n%*s", OPTION_COL, "");
    print_indented(f, opt->help, OPTION_COL);
  }
}

static const char sizes_note[] =
    "BYTES: a number of bytes, optionally followed by K, M or G (powers of 1024).\n";

static const char files_note[] =
    "Files: no output (OUT, a data file, the --also-single-file copy) may be one\n"
    "of the input's files - the model or its external data, under any name or\n"
    "link: that is a usage error and nothing is written. Every model written loads\n"
    "on its own: if IN keeps tensors in external data and OUT is in another\n"
    "directory, those tensors are written to OUT.data next to OUT (in IN's own\n"
    "directory OUT refers to IN's data files, as IN does). '-' is not stdin/stdout.\n"
    "A save with external data is atomic as a pair: killed at any point, OUT is\n"
    "the old model with its data or the new one with its data. The new data never\n"
    "replaces a file the old OUT reads: saving to OUT again writes NAME_1.EXT\n"
    "(out_1.bin, out.onnx_1.data), then NAME.EXT again; the old data files are\n"
    "removed once the new OUT is in place. --report lists the files written.\n"
    "While saving, hidden temporary files .NAME.tmp-PID-TID-*, .NAME.bak-PID-TID-*\n"
    "and .OUT.journal-PID-TID-* sit next to OUT and its data files, and .OUT.lock\n"
    "(saves to one OUT take turns); the next save to OUT removes those a killed\n"
    "save left behind.\n";

static const char exit_note[] =
    "Exit status: 0 on success, 1 on failure, 2 on a usage error;\n"
    "check: 0 valid, 1 problems found, 2 usage error, 3 MODEL unreadable.\n";

/* `onnxslim COMMAND --help` */
static void print_command_usage(FILE *f, const command *cmd) {
  const option_spec *opt;
  int takes_bytes = 0;

  fprintf(f, "Usage: %s %s%s %s\n\n", progname, cmd->name,
          cmd->options[0].name ? " [OPTION...]" : "", cmd->args);
  print_command(f, cmd);
  for (opt = cmd->options; opt->name; opt++)
    if (opt->metavar && strcmp(opt->metavar, "BYTES") == 0) takes_bytes = 1;
  fputc('\n', f);
  if (takes_bytes) fputs(sizes_note, f);
  if (strcmp(cmd->args, "IN OUT") == 0) fputs(files_note, f);
  fputs(exit_note, f);
}

static void print_usage(FILE *f) {
  const command *cmd;

  fprintf(f,
          "Usage: %s COMMAND [OPTION...] ARG...\n"
          "       %s COMMAND --help\n"
          "       %s --version\n"
          "       %s --help\n"
          "\n"
          "Commands:\n",
          progname, progname, progname, progname);
  for (cmd = commands; cmd->name; cmd++) {
    if (cmd != commands && (cmd->options[0].name || cmd[-1].options[0].name))
      fputc('\n', f); /* a blank line around commands with options */
    print_command(f, cmd);
  }
  fprintf(f,
          "\n"
          "Options:\n"
          "  -h, --help            print this help and exit\n"
          "      --version         print the library version and exit\n"
          "\n");
  fputs(sizes_note, f);
  fputs(files_note, f);
  fputs(exit_note, f);
}

int main(int argc, char **argv) {
  const command *cmd;
  const char *arg;

  if (argc < 2) return usage_error("missing command");
  arg = argv[1];
  if (strcmp(arg, "--version") == 0) {
    if (argc != 2) return usage_error("--version takes no arguments");
    printf("%s %s\n", progname, onnxslim_version_string());
    return finish_stdout(EXIT_SUCCESS);
  }
  if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
    print_usage(stdout);
    return finish_stdout(EXIT_SUCCESS);
  }
  if (arg[0] == '-') return usage_error("unknown option '%s'", arg);
  for (cmd = commands; cmd->name; cmd++)
    if (strcmp(cmd->name, arg) == 0) {
      current_command = cmd;
      return cmd->run(cmd, argc - 1, argv + 1);
    }
  return usage_error("unknown command '%s'", arg);
}
