/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
// Tests of include/onnxslim.hpp, the C++17 wrapper: every class it defines,
// against what the C API says about the same model.
//
//   test_cpp BERT.onnx IF_MODEL.onnx TMPDIR [TEST...]
//
// BERT.onnx is test/data/bert-tiny.onnx, IF_MODEL.onnx the libonnx-testdata
// model test_if (an If node with two subgraphs). Runs every test, or the ones
// named. Prints "ok   NAME" or "FAIL NAME" per test (and each failed check),
// then "N passed, N failed". Built and run by test/steps/52-cxx.sh with g++
// and clang++.
#include <onnxslim.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <type_traits>
#include <vector>

namespace {

std::string bert, if_model, tmpdir;
int checks_failed;

#define CHECK(cond)                                                          \
  do {                                                                       \
    if (!(cond)) {                                                           \
      ++checks_failed;                                                       \
      std::printf("  %s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                        \
  } while (0)

// The code of the onnxslim::error f throws, 0 if it throws none.
template <class F>
int code_of(F f) {
  try {
    f();
  } catch (const onnxslim::error &e) {
    return e.code();
  }
  return 0;
}

std::string read_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// ---- a few protobuf bytes, for models the API cannot make ----------------------
std::string varint(std::uint64_t v) {
  std::string s;
  do {
    unsigned char b = v & 0x7f;
    v >>= 7;
    s += static_cast<char>(v ? (b | 0x80) : b);
  } while (v);
  return s;
}
std::string field(int num, const std::string &payload) {
  return varint(static_cast<std::uint64_t>(num) << 3 | 2) + varint(payload.size()) + payload;
}
std::string field_int(int num, std::uint64_t v) {
  return varint(static_cast<std::uint64_t>(num) << 3) + varint(v);
}

// ---- tests ------------------------------------------------------------------------

void test_version_and_types() {
  CHECK(onnxslim::version() == ONNXSLIM_VERSION_STRING);
  CHECK(onnxslim::dtype_name(ONNXSLIM_DTYPE_BFLOAT16) == "BFLOAT16");
  // views are a pointer each, copyable; the owners are move-only
  static_assert(sizeof(onnxslim::Node) == sizeof(void *), "a view is one pointer");
  static_assert(std::is_trivially_copyable_v<onnxslim::Graph>, "views copy freely");
  static_assert(!std::is_copy_constructible_v<onnxslim::Model>, "Model is move-only");
  static_assert(std::is_nothrow_move_constructible_v<onnxslim::Model>, "Model moves");
  static_assert(!std::is_copy_constructible_v<onnxslim::CheckReport>, "reports are move-only");
  static_assert(std::is_base_of_v<std::runtime_error, onnxslim::error>, "error is a runtime_error");
}

void test_error() {
  // a missing file: the library's message (naming the path) and code
  try {
    onnxslim::Model::open(tmpdir + "/no-such-model.onnx");
    CHECK(!"open of a missing file did not throw");
  } catch (const onnxslim::error &e) {
    CHECK(e.code() == ONNXSLIM_EIO);
    CHECK(std::string(e.what()) == onnxslim_error_last());
    CHECK(std::string(e.what()).find("no-such-model.onnx") != std::string::npos);
    CHECK(std::string(e.code_text()) == onnxslim_strerror(ONNXSLIM_EIO));
  }
  // caught as std::runtime_error too
  bool caught = false;
  try {
    static const char junk[] = "\x0a\xff\xff\xff\xff\x0f";
    onnxslim::load(
        onnxslim::bytes_view(reinterpret_cast<const std::byte *>(junk), sizeof junk - 1));
  } catch (const std::runtime_error &e) {
    caught = std::strlen(e.what()) > 0;
  }
  CHECK(caught);
  CHECK(code_of([] { onnxslim::load(onnxslim::bytes_view()); }) == ONNXSLIM_EMODEL ||
        code_of([] { onnxslim::load(onnxslim::bytes_view()); }) == ONNXSLIM_EPARSE);
  // a null handle is refused when the view is made
  CHECK(code_of([] {
          onnxslim::Node n(nullptr);
          (void)n;
        }) == ONNXSLIM_EINVAL);
  // an empty Model throws instead of crashing
  onnxslim::Model empty;
  CHECK(!empty);
  CHECK(code_of([&] { empty.graph(); }) == ONNXSLIM_EINVAL);
  CHECK(code_of([&] { empty.fingerprint(); }) == ONNXSLIM_EINVAL);
}

void test_model() {
  onnxslim::Model m = onnxslim::Model::open(bert);
  CHECK(static_cast<bool>(m));
  CHECK(m.ir_version() == onnxslim_model_ir_version(m.get()));
  CHECK(m.producer_name() == "libonnxslim-test");
  CHECK(m.producer_version() == onnxslim_model_producer_version(m.get()));
  CHECK(m.domain() == "");
  CHECK(m.model_version() == 1);
  CHECK(m.doc_string() == onnxslim_model_doc_string(m.get()));
  CHECK(m.opsets().size() == 1);
  for (onnxslim::Opset o : m.opsets()) {
    CHECK(o.domain == "" || o.domain == "ai.onnx");
    CHECK(o.version == 17);
  }
  CHECK(m.metadata().size() == 2);
  CHECK(m.metadata()[0].first == "generator");
  CHECK(m.metadata()[0].second == "test/gen/make_bert.py");
  CHECK(m.functions().empty());
  CHECK(m.files().size() == 1 && m.files()[0] == bert);

  // small edits
  m.set_producer("cxx", "1.2");
  CHECK(m.producer_name() == "cxx" && m.producer_version() == "1.2");
  m.set_doc_string("doc");
  CHECK(m.doc_string() == "doc");
  m.set_ir_version(9);
  CHECK(m.ir_version() == 9);
  m.set_opset("com.example", 3);
  CHECK(m.opsets().size() == 2);
  m.remove_opset("com.example");
  CHECK(m.opsets().size() == 1);
  m.set_metadata("k", "v");
  CHECK(m.metadata().size() == 3 && m.metadata()[2].second == "v");
  m.remove_metadata("k");
  CHECK(m.metadata().size() == 2);
  CHECK(code_of([&] { m.remove_metadata("k"); }) == ONNXSLIM_ENOTFOUND);
  std::string_view u1 = m.unique_name("input_ids");
  CHECK(u1 != "input_ids" && u1.substr(0, 9) == "input_ids");
  CHECK(m.unique_name("input_ids") != u1);

  // moving keeps views valid; the moved-from model is empty
  onnxslim::Graph g = m.graph();
  std::string_view gname = g.name();
  onnxslim::Model moved = std::move(m);
  CHECK(!m && moved);
  CHECK(moved.graph() == g && g.name() == gname);
  onnxslim::Model assigned;
  assigned = std::move(moved);
  CHECK(!moved && assigned.graph() == g);
  // release() hands the C model over
  onnxslim_model *raw = assigned.release();
  CHECK(!assigned && raw != nullptr);
  onnxslim::Model again(raw);  // and takes it back
  CHECK(again.get() == raw);

  // load from a buffer, copied and borrowed
  std::string bytes = read_file(bert);
  onnxslim::Model copied = onnxslim::load(onnxslim::bytes_of(bytes));
  onnxslim::Model borrowed =
      onnxslim::Model::from_buffer(onnxslim::bytes_of(bytes), ONNXSLIM_BORROW);
  CHECK(copied.fingerprint() == borrowed.fingerprint());
  CHECK(copied.graph().nodes().size() == 58);
  // options reach the library: a depth limit of 1 refuses the model
  onnxslim::LoadOptions shallow;
  shallow.max_depth = 1;
  CHECK(code_of([&] { onnxslim::Model::open(bert, shallow); }) == ONNXSLIM_ELIMIT);
}

void test_graph_ranges() {
  onnxslim::Model m = onnxslim::Model::open(bert);
  onnxslim::Graph g = m.graph();
  const onnxslim_graph *cg = g.get();
  CHECK(g.name() == "tiny_xlmr");
  CHECK(!g.parent_node());
  CHECK(g.nodes().size() == onnxslim_graph_node_count(cg));
  std::size_t i = 0;
  for (onnxslim::Node n : g.nodes()) {
    CHECK(n.get() == onnxslim_graph_node(cg, i));
    ++i;
  }
  CHECK(i == 58);
  CHECK(std::count_if(g.nodes().begin(), g.nodes().end(),
                      [](onnxslim::Node n) { return n.op_type() == "Gather"; }) == 3);
  CHECK(std::distance(g.nodes().begin(), g.nodes().end()) == 58);
  auto it = g.nodes().begin();
  auto first = it++;
  CHECK(first != it && *first == g.nodes()[0] && *it == g.nodes()[1]);
  CHECK(code_of([&] { g.nodes()[58]; }) == ONNXSLIM_ERANGE);
  CHECK(g.nodes().to_vector().size() == 58);

  std::vector<std::string> in;
  for (onnxslim::ValueInfo v : g.inputs()) in.emplace_back(v.name());
  CHECK((in == std::vector<std::string>{"input_ids", "attention_mask"}));
  CHECK(g.outputs().size() == 1 && g.outputs()[0].name() == "logits");
  CHECK(g.value_infos().size() == onnxslim_graph_value_info_count(cg));
  CHECK(g.initializers().size() == 33);
  std::size_t n_init = 0;
  for (onnxslim::Tensor t : g.initializers()) {
    CHECK(!t.name().empty());
    CHECK(g.find_initializer(std::string(t.name())) == t);
    ++n_init;
  }
  CHECK(n_init == 33);

  // lookups: found, or nullopt
  CHECK(!g.find_node("no such node"));
  CHECK(!g.find_initializer("no such tensor"));
  CHECK(g.find_value_info("logits") && g.find_value_info("logits")->name() == "logits");
  std::optional<onnxslim::Node> prod = g.producer("logits");
  CHECK(prod && !prod->outputs().empty() && prod->outputs()[0] == "logits");
  CHECK(!g.producer("input_ids"));
  std::vector<onnxslim::Node> cons = g.consumers("input_ids");
  CHECK(cons.size() == onnxslim_graph_consumer_count(cg, "input_ids") && !cons.empty());
  for (onnxslim::Node c : cons) {
    CHECK(std::find(c.inputs().begin(), c.inputs().end(), "input_ids") != c.inputs().end());
  }
}

void test_node_attr() {
  onnxslim::Model m = onnxslim::Model::open(bert);
  onnxslim::Graph g = m.graph();
  onnxslim::Node n = g.nodes()[0];
  CHECK(n.graph() && *n.graph() == g);
  CHECK(n.name() == onnxslim_node_name(n.get()));
  CHECK(n.op_type() == onnxslim_node_op_type(n.get()));
  CHECK(n.domain() == "" && n.doc_string() == "");
  CHECK(n.inputs().size() == onnxslim_node_input_count(n.get()));
  CHECK(n.outputs().size() == onnxslim_node_output_count(n.get()));
  CHECK(n.subgraphs().empty());

  // a Constant's value is a TENSOR attribute
  auto is_constant = [](onnxslim::Node x) { return x.op_type() == "Constant"; };
  auto c = std::find_if(g.nodes().begin(), g.nodes().end(), is_constant);
  CHECK(c != g.nodes().end());
  std::optional<onnxslim::Attr> value = (*c).find_attr("value");
  CHECK(value && value->type() == ONNXSLIM_ATTR_TENSOR && value->name() == "value");
  CHECK(value->doc_string() == "" && value->ref_attr_name() == "");
  CHECK(value->as_tensor().element_count() >= 1);
  CHECK(code_of([&] { value->as_int(); }) == ONNXSLIM_ETYPE);
  CHECK(!(*c).find_attr("nope"));
  CHECK((*c).attrs().size() == 1 && (*c).attrs()[0] == *value);

  // every setter, read back through the getters
  onnxslim::Node x = g.add_node("Custom", {"input_ids", ""}, {"x_out"}, "x", "com.example");
  CHECK(x.name() == "x" && x.op_type() == "Custom" && x.domain() == "com.example");
  CHECK(x.inputs().size() == 2 && x.inputs()[1] == "");
  x.set_attr_float("f", 0.5f);
  x.set_attr_int("i", -7);
  x.set_attr_string("s", std::string_view("a\0b", 3));
  x.set_attr_floats("fs", {1.5f, 2.5f});
  std::vector<std::int64_t> ints{3, 4, 5};
  x.set_attr_ints("is", ints);
  x.set_attr_strings("ss", {"one", "two"});
  x.set_attr_tensor("t", value->as_tensor());
  CHECK(x.find_attr("f")->as_float() == 0.5f);
  CHECK(x.find_attr("i")->as_int() == -7);
  CHECK(x.find_attr("s")->as_string() == std::string_view("a\0b", 3));
  onnxslim::span<const float> fs = x.find_attr("fs")->as_floats();
  CHECK(fs.size() == 2 && fs[0] == 1.5f && fs[1] == 2.5f);
  onnxslim::span<const std::int64_t> is = x.find_attr("is")->as_ints();
  CHECK(std::equal(is.begin(), is.end(), ints.begin(), ints.end()));
  onnxslim::Attr ss = *x.find_attr("ss");
  CHECK(ss.list_size() == 2 && ss.string_at(1) == "two");
  CHECK(x.find_attr("t")->as_tensor().byte_size() == value->as_tensor().byte_size());
  x.set_attr_int("i", 8);  // replaced in place
  CHECK(x.attrs().size() == 7 && x.attrs()[1].as_int() == 8);
  x.remove_attr("i");
  CHECK(x.attrs().size() == 6 && !x.find_attr("i"));
  CHECK(code_of([&] { x.remove_attr("i"); }) == ONNXSLIM_ENOTFOUND);

  x.set_name("y");
  x.set_op_type("Other");
  x.set_domain("com.other");
  x.set_input(0, "attention_mask");
  x.set_output(0, "y_out");
  CHECK(x.name() == "y" && x.op_type() == "Other" && x.domain() == "com.other");
  CHECK(x.inputs()[0] == "attention_mask" && x.outputs()[0] == "y_out");
  x.set_inputs({"a", "b", "c"});
  x.set_outputs({"d"});
  CHECK(x.inputs().size() == 3 && x.inputs()[2] == "c" && x.outputs().size() == 1);
  CHECK(code_of([&] { x.set_input(9, "z"); }) == ONNXSLIM_ERANGE);
  g.remove_node(x);
  CHECK(!g.find_node("y"));
  // the removed node's view now throws (its memory stays with the model)
  CHECK(code_of([&] { x.set_name("z"); }) == ONNXSLIM_EINVAL);
  // a lookup on it is an error too, not "not found"
  CHECK(code_of([&] { x.find_attr("f"); }) == ONNXSLIM_EINVAL);
}

void test_tensor() {
  onnxslim::Model m = onnxslim::Model::open(bert);
  onnxslim::Graph g = m.graph();
  auto is_float_matrix = [](onnxslim::Tensor t) {
    return t.dtype() == ONNXSLIM_DTYPE_FLOAT && t.rank() == 2;
  };
  auto it = std::find_if(g.initializers().begin(), g.initializers().end(), is_float_matrix);
  CHECK(it != g.initializers().end());
  onnxslim::Tensor t = *it;
  std::vector<std::int64_t> dims = t.dims();
  CHECK(dims.size() == 2 && t.dim(0) == dims[0] && t.dim(1) == dims[1]);
  CHECK(code_of([&] { t.dim(2); }) == ONNXSLIM_ERANGE);
  CHECK(t.element_count() == dims[0] * dims[1]);
  CHECK(t.byte_size() == static_cast<std::uint64_t>(t.element_count()) * 4);
  CHECK(t.storage() == onnxslim_tensor_storage(t.get()));
  CHECK(t.doc_string() == "");
  onnxslim::bytes_view d = t.data();
  const void *cp = nullptr;
  std::size_t cn = 0;
  CHECK(onnxslim_tensor_data(t.get(), &cp, &cn) == 0);
  CHECK(static_cast<const void *>(d.data()) == cp && d.size() == cn);  // no copy
  std::vector<float> v = t.values<float>();
  CHECK(v.size() == static_cast<std::size_t>(t.element_count()));
  float f0;
  std::memcpy(&f0, d.data(), 4);
  CHECK(v[0] == f0);
  std::byte buf[8];
  t.read(4, buf);
  CHECK(std::memcmp(buf, d.data() + 4, 8) == 0);
  CHECK(code_of([&] { t.read(d.size() - 4, buf); }) == ONNXSLIM_ERANGE);
  CHECK(code_of([&] { t.values<double>(); }) == ONNXSLIM_ETYPE);
  CHECK(t.string_count() == 0);

  // set_data and set_name; a new initializer from a vector
  std::vector<std::uint16_t> half{0x3c00, 0x4000, 0x4200};
  t.set_data(ONNXSLIM_DTYPE_FLOAT16, {3}, onnxslim::bytes_of(half));
  CHECK(t.dtype() == ONNXSLIM_DTYPE_FLOAT16 && t.element_count() == 3);
  CHECK(t.values<std::uint16_t>() == half);
  t.set_name("renamed");
  CHECK(t.name() == "renamed" && g.find_initializer("renamed") == t);
  std::vector<std::int64_t> shape{2};
  std::vector<std::int64_t> data{7, -1};
  onnxslim::Tensor n =
      g.add_initializer("new_ints", ONNXSLIM_DTYPE_INT64, shape, onnxslim::bytes_of(data));
  CHECK(n.values<std::int64_t>() == data);
  CHECK(code_of([&] {
          g.add_initializer("bad", ONNXSLIM_DTYPE_INT64, {3}, onnxslim::bytes_of(data));
        }) == ONNXSLIM_EINVAL);
  onnxslim::Tensor c = g.add_initializer_copy(n, "copy_ints");
  CHECK(c.name() == "copy_ints" && c.values<std::int64_t>() == data);
  g.remove_initializer(c);
  CHECK(!g.find_initializer("copy_ints"));

  // a STRING tensor, from a Constant's value_strings? not in bert-tiny: build one
  std::string tensor = field_int(1, 2) + field_int(2, ONNXSLIM_DTYPE_STRING) + field(6, "ab") +
                       field(6, std::string("c\0d", 3)) + field(8, "strs");
  std::string graph = field(2, "g") + field(5, tensor);
  std::string model = field_int(1, 8) + field(7, graph);
  onnxslim::Model sm = onnxslim::load(onnxslim::bytes_of(model));
  onnxslim::Tensor st = sm.graph().initializers()[0];
  CHECK(st.string_count() == 2 && st.string_at(0) == "ab" &&
        st.string_at(1) == std::string_view("c\0d", 3));
  CHECK(code_of([&] { st.data(); }) == ONNXSLIM_EUNSUPPORTED);
}

void test_value_info_type() {
  onnxslim::Model m = onnxslim::Model::open(bert);
  onnxslim::Graph g = m.graph();
  onnxslim::ValueInfo ids = g.inputs()[0];
  CHECK(ids.doc_string() == "");
  std::optional<onnxslim::Type> t = ids.type();
  CHECK(t && t->kind() == ONNXSLIM_TYPE_TENSOR && t->dtype() == ONNXSLIM_DTYPE_INT64);
  CHECK(t->has_shape() && t->rank() == 2 && t->denotation() == "");
  CHECK(!t->inner());
  onnxslim::Dim d0 = t->dim(0);
  CHECK(d0.kind == ONNXSLIM_DIM_PARAM && d0.param == "batch" && d0.value == 0);
  std::vector<std::string> params;
  for (onnxslim::Dim d : t->dims()) params.emplace_back(d.param);
  CHECK((params == std::vector<std::string>{"batch", "seq"}));
  CHECK(code_of([&] { t->dim(2); }) == ONNXSLIM_ERANGE);

  onnxslim::ValueInfo v = g.add_value_info("cxx_value");
  CHECK(!v.type());
  v.set_tensor_type(ONNXSLIM_DTYPE_FLOAT, {-1, 4}, {"n", ""});
  std::optional<onnxslim::Type> vt = v.type();
  CHECK(vt && vt->rank() == 2 && vt->dim(0).param == "n");
  CHECK(vt->dim(1).kind == ONNXSLIM_DIM_VALUE && vt->dim(1).value == 4);
  v.set_dtype(ONNXSLIM_DTYPE_BFLOAT16);
  CHECK(v.type()->dtype() == ONNXSLIM_DTYPE_BFLOAT16 && v.type()->rank() == 2);
  v.set_tensor_type(ONNXSLIM_DTYPE_DOUBLE);
  CHECK(!v.type()->has_shape());
  v.set_type(*ids.type());
  CHECK(v.type()->dtype() == ONNXSLIM_DTYPE_INT64 && v.type()->dim(1).param == "seq");
  v.set_type(std::nullopt);
  CHECK(!v.type());
  v.set_name("cxx_value2");
  CHECK(g.find_value_info("cxx_value2") == v);
  CHECK(code_of([&] {
          v.set_tensor_type(ONNXSLIM_DTYPE_FLOAT, {1, 2}, {"only one"});
        }) == ONNXSLIM_EINVAL);
  g.remove_value_info(v);
  CHECK(!g.find_value_info("cxx_value2"));
  onnxslim::ValueInfo in = g.add_input("extra_in");
  onnxslim::ValueInfo out = g.add_output("extra_out");
  CHECK(g.inputs().size() == 3 && g.inputs()[2] == in && g.outputs()[1] == out);
}

void test_subgraphs() {
  onnxslim::Model m = onnxslim::Model::open(if_model);
  onnxslim::Graph g = m.graph();
  onnxslim::Node iff = g.nodes()[0];
  CHECK(iff.op_type() == "If");
  CHECK(iff.subgraphs().size() == 2);
  std::vector<std::string> names;
  for (onnxslim::Graph sub : iff.subgraphs()) {
    CHECK(sub.parent_node() && *sub.parent_node() == iff);
    names.emplace_back(sub.name());
    for (onnxslim::Node n : sub.nodes()) {
      CHECK(n.op_type() == "Constant");
      CHECK(n.graph() && *n.graph() == sub);
    }
  }
  CHECK((names == std::vector<std::string>{"else_body", "then_body"}));
  onnxslim::Attr then_attr = *iff.find_attr("then_branch");
  CHECK(then_attr.type() == ONNXSLIM_ATTR_GRAPH && then_attr.as_graph() == iff.subgraphs()[1]);
  // a GRAPH attribute copied from another graph, and a new empty one
  onnxslim::Graph copy = iff.set_attr_graph("extra_branch", then_attr.as_graph());
  CHECK(copy != then_attr.as_graph() && copy.nodes().size() == 1);
  onnxslim::Graph fresh = iff.set_attr_graph("empty_branch");
  CHECK(fresh.nodes().empty() && iff.subgraphs().size() == 4);
  fresh.set_name("fresh");
  CHECK(fresh.name() == "fresh");
}

void test_function() {
  // a model-local function, made from bytes (the API has no function editor)
  std::string node = field(1, "a") + field(2, "b") + field(4, "Identity");
  std::string fn = field(1, "MyFn") + field(4, "a") + field(5, "b") + field(6, "alpha") +
                   field(7, node) + field(9, field_int(2, 17)) + field(10, "local");
  std::string graph = field(2, "g");
  std::string model =
      field_int(1, 8) + field(8, field_int(2, 17)) + field(7, graph) + field(25, fn);
  onnxslim::Model m = onnxslim::load(onnxslim::bytes_of(model));
  CHECK(m.functions().size() == 1);
  onnxslim::Function f = m.functions()[0];
  CHECK(f.get() == onnxslim_model_function(m.get(), 0));
  CHECK(f.name() == "MyFn" && f.domain() == "local" && f.doc_string() == "");
  CHECK(f.inputs().size() == 1 && f.inputs()[0] == "a");
  CHECK(f.outputs().size() == 1 && f.outputs()[0] == "b");
  CHECK(f.attributes().size() == 1 && f.attributes()[0] == "alpha");
  CHECK(f.opsets().size() == 1 && f.opsets()[0].version == 17);
  CHECK(f.nodes().size() == 1 && f.nodes()[0].op_type() == "Identity");
  CHECK(!f.nodes()[0].graph());  // a function body's node has no graph
}

void test_infer_shapes() {
  onnxslim::Model m = onnxslim::Model::open(bert);
  onnxslim::Graph g = m.graph();
  g.add_node("Relu", {std::string(g.nodes()[0].outputs()[0])}, {"relu_inf"}, "relu_inf");
  // a dry run reports the new value and writes nothing
  onnxslim::InferReport dry = m.infer_shapes(ONNXSLIM_INFER_DRY_RUN);
  CHECK(dry.size() > 0 && dry.conflicts() == 0);
  bool found = false;
  for (const onnxslim::InferredValue &v : dry.values()) {
    if (v.name != "relu_inf") continue;
    found = true;
    CHECK(v.status == ONNXSLIM_INFER_NEW && v.dtype == ONNXSLIM_DTYPE_FLOAT && v.has_shape);
    CHECK(v.dims.size() == 3 && v.dims[0].kind == ONNXSLIM_DIM_PARAM && v.dims[0].param == "batch");
    CHECK(v.dims[2].kind == ONNXSLIM_DIM_VALUE && v.dims[2].value == 16);
  }
  CHECK(found);
  CHECK(!m.graph().find_value_info("relu_inf"));
  // the default writes it
  onnxslim::InferReport w = m.infer_shapes();
  CHECK(w.size() == dry.size());
  CHECK(m.graph().find_value_info("relu_inf"));
  bool threw = false;
  try {
    m.infer_shapes(0x100);
  } catch (const onnxslim::error &e) {
    threw = e.code() == ONNXSLIM_EINVAL;
  }
  CHECK(threw);
}

void test_simplify() {
  onnxslim::Model m = onnxslim::Model::open(bert);
  // a duplicate of the first node (same op, inputs, attributes) and an
  // Identity: cse merges the one, noop removes the other
  onnxslim::Graph g = m.graph();
  onnxslim::Node first = g.nodes()[0];
  std::vector<std::string> ins;
  for (std::string_view v : first.inputs()) ins.emplace_back(v);
  std::size_t n0 = g.nodes().size();
  g.add_node(std::string(first.op_type()), ins, {"dup_out"}, "dup");
  g.add_node("Identity", {"dup_out"}, {"id_out"}, "id");
  g.add_node("Relu", {"id_out"}, {"relu_out"}, "relu");
  g.add_output("relu_out");
  onnxslim::SimplifyReport r = m.simplify(ONNXSLIM_SIMPLIFY_NOOP | ONNXSLIM_SIMPLIFY_CSE);
  CHECK(r.iterations() >= 1 && !r.steps().empty());
  CHECK(r.nodes_before() == n0 + 3 && r.nodes_after() == n0 + 1);
  bool merged = false, removed = false;
  for (const onnxslim::SimplifyChange &c : r.changes()) {
    merged |= c.kind == ONNXSLIM_SIMPLIFY_MERGED_NODE && c.name == "dup";
    removed |= c.kind == ONNXSLIM_SIMPLIFY_REMOVED_NODE && c.name == "id";
  }
  CHECK(merged && removed);
  CHECK(!m.graph().find_node("dup") && m.graph().find_node("relu"));
  // constant folding: the Shape of a weight becomes an initializer
  g = m.graph();
  std::string w(g.initializers()[0].name());
  g.add_node("Shape", {w}, {"shape_out"}, "shape_of_weight");
  g.add_node("Relu", {"shape_out"}, {"relu2_out"}, "relu2");
  g.add_output("relu2_out");
  onnxslim::SimplifyReport f = m.simplify(ONNXSLIM_SIMPLIFY_FOLD, 0, 1024);
  bool folded = false;
  for (const onnxslim::SimplifyChange &c : f.changes())
    folded |= c.kind == ONNXSLIM_SIMPLIFY_FOLDED_NODE && c.name == "shape_of_weight";
  CHECK(folded && !m.graph().find_node("shape_of_weight") &&
        m.graph().find_initializer("shape_out"));
  bool threw = false;
  try {
    m.simplify(0);
  } catch (const onnxslim::error &e) {
    threw = e.code() == ONNXSLIM_EINVAL;
  }
  CHECK(threw);
}

void test_diff() {
  onnxslim::Model a = onnxslim::Model::open(bert), b = onnxslim::Model::open(bert);
  onnxslim::DiffReport same = a.diff(b);
  CHECK(same.equal() && same.empty() && same.begin() == same.end());
  CHECK(same.fingerprint(ONNXSLIM_DIFF_A) == a.fingerprint());
  b.graph().add_node("Relu", {"logits"}, {"extra_out"}, "extra");
  onnxslim::DiffReport r = a.diff(b, true);
  CHECK(!r.equal() && r.size() == onnxslim_diff_report_count(r.get()));
  bool found = false;
  for (onnxslim::DiffEntry e : r)
    if (e.kind == ONNXSLIM_DIFF_KIND_NODE && e.name == "extra") {
      found = e.aspect == ONNXSLIM_DIFF_PRESENCE && !e.a && e.b && *e.b == "Relu" &&
              e.index_a == -1 && e.index_b >= 0 && !e.numbers &&
              e.text == "node 'extra': only in B (Relu)";
    }
  CHECK(found);
}

void test_check() {
  onnxslim::Model m = onnxslim::Model::open(bert);
  onnxslim::CheckReport clean = m.check();
  CHECK(clean.ok() && clean.empty() && clean.size() == 0);
  CHECK(clean.valid() && clean.errors() == 0);
  CHECK(clean.note().empty());
  {
    /* warnings only: valid() but not ok(). The shape inputs (Reshape's
     * shape, Unsqueeze's axes, ...) moved to external data by
     * FORCE_SHAPE_INPUTS are ONNXSLIM_CHECK_EXTERNAL_LOAD_INPUT warnings. */
    onnxslim::Model w = onnxslim::Model::open(bert);
    onnxslim::SaveOptions so;
    so.layout = ONNXSLIM_LAYOUT_ONE_FILE;
    so.size_threshold = 0;
    so.flags = ONNXSLIM_SAVE_FORCE_SHAPE_INPUTS;
    std::string path = tmpdir + "/cpp-warn.onnx";
    w.save(path, so);
    onnxslim::CheckReport wr = onnxslim::Model::open(path).check();
    std::size_t warn = 0;
    for (onnxslim::CheckProblem p : wr) warn += p.code == ONNXSLIM_CHECK_EXTERNAL_LOAD_INPUT;
    CHECK(warn > 0 && wr.size() == warn);
    CHECK(!wr.ok() && wr.valid() && wr.errors() == 0);
  }
  {
    /* an unknown op: found, and skipped by name */
    onnxslim::Model u = onnxslim::Model::open(bert);
    u.graph().add_node("Frobnicate", {"input_ids"}, {"fz"}, "frob");
    onnxslim::CheckReport all = u.check();
    bool unknown = false;
    for (onnxslim::CheckProblem p : all) unknown |= p.code == ONNXSLIM_CHECK_UNKNOWN_OP;
    CHECK(unknown);
    int code = onnxslim::Model::check_code("unknown_op");
    CHECK(code == ONNXSLIM_CHECK_UNKNOWN_OP);
    CHECK(!onnxslim::Model::check_code_is_warning(code));
    CHECK(onnxslim::Model::check_code_is_warning(ONNXSLIM_CHECK_EXTERNAL_LOAD_INPUT));
    onnxslim::CheckReport some = u.check(std::vector<int>{code});
    CHECK(some.size() + 1 == all.size());
    bool threw = false;
    try {
      onnxslim::Model::check_code("nonesuch");
    } catch (const onnxslim::error &e) {
      threw = e.code() == ONNXSLIM_ENOTFOUND;
    }
    CHECK(threw);
  }
  CHECK(clean.begin() == clean.end());
  m.graph().add_node("Relu", {"nowhere"}, {"r"}, "bad_relu");
  onnxslim::CheckReport r = m.check();
  CHECK(!r.ok() && !r.valid() && r.errors() >= 1 &&
        r.size() == onnxslim_check_report_count(r.get()));
  bool found = false;
  for (onnxslim::CheckProblem p : r) {
    if (p.code == ONNXSLIM_CHECK_UNDEFINED_INPUT &&
        p.location.find("bad_relu") != std::string_view::npos &&
        p.message.find("nowhere") != std::string_view::npos)
      found = true;
  }
  CHECK(found);
  onnxslim::CheckReport moved = std::move(r);
  CHECK(!moved.ok() && moved[0].code > 0);
}

void test_convert() {
  onnxslim::Model m = onnxslim::Model::open(bert);
  onnxslim::ConvertReport r =
      m.convert_gather_tables(ONNXSLIM_DTYPE_BFLOAT16, 0, ONNXSLIM_CONVERT_TRUNCATE);
  CHECK(r.size() == onnxslim_convert_report_count(r.get()) && !r.empty());
  std::size_t n = 0;
  for (const onnxslim::ConvertEntry &e : r) {
    CHECK(e.from == ONNXSLIM_DTYPE_FLOAT && e.to == ONNXSLIM_DTYPE_BFLOAT16);
    CHECK(e.bytes_after * 2 == e.bytes_before);
    CHECK(e.stats.count * 4 == e.bytes_before && e.stats.max_abs_error > 0);
    onnxslim::Tensor t = *m.graph().find_initializer(std::string(e.name));
    CHECK(t.dtype() == ONNXSLIM_DTYPE_BFLOAT16);
    // the Gather that reads the table is followed by a Cast back to FLOAT
    for (onnxslim::Node g : m.graph().consumers(std::string(e.name))) {
      onnxslim::Node cast = m.graph().consumers(std::string(g.outputs()[0]))[0];
      CHECK(cast.op_type() == "Cast" && cast.find_attr("to")->as_int() == ONNXSLIM_DTYPE_FLOAT);
    }
    ++n;
  }
  CHECK(n == r.size());

  onnxslim::Model m2 = onnxslim::Model::open(bert);
  onnxslim::ConvertOptions o;
  o.to = ONNXSLIM_DTYPE_FLOAT16;
  o.policy = ONNXSLIM_CONVERT_POLICY_CAST_BEFORE;
  o.select = {"op:MatMul"};
  o.exclude = {"*never*"};
  o.report_flags = ONNXSLIM_CONVERT_REPORT_NO_STATS;
  onnxslim::ConvertReport r2 = m2.convert(o);
  CHECK(!r2.empty() && r2[0].to == ONNXSLIM_DTYPE_FLOAT16 && r2[0].stats.max_abs_error == 0);
  CHECK(m2.check().ok());
  onnxslim::ConvertOptions missing;
  missing.select = {"no_such_tensor"};
  CHECK(code_of([&] { m2.convert(missing); }) == ONNXSLIM_ENOTFOUND);
  // a value FLOAT16 cannot hold: the tensor keeps its type, listed in kept()
  for (int force = 0; force < 2; force++) {
    onnxslim::Model m6 = onnxslim::Model::open(bert);
    onnxslim_tensor *t = onnxslim_graph_initializer(onnxslim_model_graph(m6.get()), 0);
    const float big[2] = {9.8e7f, 0.5f};
    const std::int64_t d2[1] = {2};
    CHECK(onnxslim_tensor_set_data(t, ONNXSLIM_DTYPE_FLOAT, d2, 1, big, sizeof big,
                                   ONNXSLIM_COPY) == 0);
    std::string name = onnxslim_tensor_name(t);
    onnxslim::ConvertOptions f;
    f.to = ONNXSLIM_DTYPE_FLOAT16;
    f.select = {name};
    if (force) f.overflow = ONNXSLIM_CONVERT_OVERFLOW_CONVERT;
    onnxslim::ConvertReport rk = m6.convert(f);
    std::size_t nk = 0;
    for (const onnxslim::KeptEntry &k : rk.kept()) {
      CHECK(k.name == name && k.dtype == ONNXSLIM_DTYPE_FLOAT && k.stats.to_inf == 1);
      ++nk;
    }
    CHECK(nk == (force ? 0u : 1u) && rk.size() == (force ? 1u : 0u));
  }
  onnxslim::ConvertOptions bad;
  bad.to = ONNXSLIM_DTYPE_FLOAT16;
  bad.flags = ONNXSLIM_CONVERT_TRUNCATE;
  CHECK(code_of([&] { m2.convert(bad); }) == ONNXSLIM_EINVAL);

  // the Gather tables with options: FLOAT16, the word embedding excluded
  onnxslim::Model mg = onnxslim::Model::open(bert);
  onnxslim::ConvertOptions go;
  go.to = ONNXSLIM_DTYPE_FLOAT16;
  go.exclude = {"roberta.embeddings.word_embeddings.weight"};
  onnxslim::ConvertReport rg = mg.convert_gather_tables(go);
  CHECK(rg.size() == 1 && rg[0].name == "roberta.embeddings.position_embeddings.weight" &&
        rg[0].to == ONNXSLIM_DTYPE_FLOAT16);
  go.select = {"x"};  // the tables are its own selection
  CHECK(code_of([&] { mg.convert_gather_tables(go); }) == ONNXSLIM_EINVAL);

  // quantization: GatherBlockQuantized, INT4 in blocks of 16
  onnxslim::Model m3 = onnxslim::Model::open(bert);
  onnxslim::QuantOptions q;
  q.to = ONNXSLIM_DTYPE_INT4;
  q.select = {"op:Gather:0"};
  q.block_size = 16;
  q.format = ONNXSLIM_QUANT_FORMAT_ORT;
  onnxslim::ConvertReport r3 = m3.quantize(q);
  CHECK(!r3.empty() && r3[0].to == ONNXSLIM_DTYPE_INT4 && r3[0].quantized);
  CHECK(r3[0].quant.bits == 4 && r3[0].quant.block_size == 16);
  CHECK(r3[0].quant.max_abs_error > 0 && r3[0].quant.scale_min <= r3[0].quant.scale_max);
  CHECK(r3[0].quant.saturated == 0);  // the default scales (absmax)
  // the searched scales: no row reads back worse
  onnxslim::Model m6 = onnxslim::Model::open(bert);
  q.scale_method = ONNXSLIM_QUANT_SCALES_MSE;
  onnxslim::ConvertReport r6 = m6.quantize(q);
  q.scale_method = ONNXSLIM_QUANT_SCALES_DEFAULT;
  CHECK(!r6.empty() && r6[0].quant.max_row_rel_error <= r3[0].quant.max_row_rel_error);
  CHECK(!r2[0].quantized);
  // clipped at the 50th percentile: values saturate, counted
  onnxslim::Model m5 = onnxslim::Model::open(bert);
  q.clip_percentile = 50;
  onnxslim::ConvertReport r5 = m5.quantize(q);
  CHECK(!r5.empty() && r5[0].quant.saturated > 0);
  q.clip_percentile = 100;
  CHECK(code_of([&] { m5.quantize(q); }) == ONNXSLIM_EINVAL);
  q.clip_percentile = 0;
  q.flags = 1u << 30;  // reserved (2 is ONNXSLIM_QUANT_ASYMMETRIC since the tables merge)
  onnxslim::Model m4 = onnxslim::Model::open(bert);
  CHECK(code_of([&] { m4.quantize(q); }) == ONNXSLIM_EINVAL);
  // the weights only, by default INT8: the Gather table is left alone
  onnxslim::QuantOptions w;
  w.targets = ONNXSLIM_QUANT_WEIGHTS;
  onnxslim::ConvertReport rw = m4.quantize(w);
  CHECK(!rw.empty() && rw[0].quantized && rw[0].quant.bits == 8);
  for (const onnxslim::ConvertEntry &e : rw)
    CHECK(e.name != "roberta.embeddings.word_embeddings.weight");
  // INT8 through convert(): refused, quantize() is the road
  onnxslim::ConvertOptions c8;
  c8.to = ONNXSLIM_DTYPE_INT8;
  CHECK(code_of([&] { m4.convert(c8); }) == ONNXSLIM_EUNSUPPORTED);
}

void test_save_fingerprint() {
  for (const char *f : {"plain.onnx", "ext.onnx", "ext.bin", "ext_1.bin", "inline.onnx"})
    std::remove((tmpdir + "/" + f).c_str());
  onnxslim::Model m = onnxslim::Model::open(bert);
  std::string fp = m.fingerprint();
  char cfp[ONNXSLIM_FINGERPRINT_SIZE];
  CHECK(onnxslim_fingerprint(cfp, sizeof cfp, m.get()) == 0 && fp == cfp && fp.size() == 32);

  // as loaded: byte for byte the input, also through a buffer
  onnxslim::SaveReport plain = m.save(tmpdir + "/plain.onnx");
  CHECK(plain.empty());
  CHECK(read_file(tmpdir + "/plain.onnx") == read_file(bert));
  std::vector<std::byte> buf = m.save_buffer();
  CHECK(buf.size() == read_file(bert).size() &&
        std::memcmp(buf.data(), read_file(bert).data(), buf.size()) == 0);
  CHECK(onnxslim::load(onnxslim::bytes_view(buf.data(), buf.size())).fingerprint() == fp);

  // all tensors in one data file
  onnxslim::SaveOptions ext;
  ext.layout = ONNXSLIM_LAYOUT_ONE_FILE;
  ext.size_threshold = 0;
  ext.location = "ext.bin";
  ext.flags = ONNXSLIM_SAVE_NO_FSYNC;
  onnxslim::SaveReport r = m.save(tmpdir + "/ext.onnx", ext);
  CHECK(r.size() == onnxslim_save_report_count(r.get()) && !r.empty());
  std::size_t external = 0;
  for (onnxslim::SaveEntry e : r) {
    if (e.placement == ONNXSLIM_SAVE_PLACEMENT_EXTERNAL) {
      ++external;
      CHECK(e.location == "ext.bin" && e.length > 0);
    } else {
      CHECK(e.location.empty());
      CHECK(e.placement != ONNXSLIM_SAVE_PLACEMENT_BELOW_THRESHOLD);  // threshold 0
    }
  }
  CHECK(external > 0);
  onnxslim::Model back = onnxslim::Model::open(tmpdir + "/ext.onnx");
  CHECK(back.fingerprint() == fp);
  CHECK(back.files().size() == 2);
  onnxslim::Tensor t = back.graph().initializers()[0];
  CHECK(t.storage() == ONNXSLIM_STORAGE_EXTERNAL || t.storage() == ONNXSLIM_STORAGE_RAW);
  // merged back into one file
  onnxslim::SaveOptions inl;
  inl.layout = ONNXSLIM_LAYOUT_INLINE;
  back.save(tmpdir + "/inline.onnx", inl);
  CHECK(onnxslim::Model::open(tmpdir + "/inline.onnx").fingerprint() == fp);
  CHECK(r.kernel_copied() == onnxslim_save_report_kernel_copied(r.get()));
  // the model file of that save, in memory: the same bytes, the same report
  onnxslim::SaveReport mem(nullptr);
  std::vector<std::byte> ext_buf = m.save_buffer_external(ext, &mem);
  std::string ext_file = read_file(tmpdir + "/ext.onnx");
  CHECK(ext_buf.size() == ext_file.size() &&
        std::memcmp(ext_buf.data(), ext_file.data(), ext_buf.size()) == 0);
  CHECK(mem.size() == r.size() && mem.kernel_copied() == 0);
  for (std::size_t i = 0; i < mem.size() && i < r.size(); i++)
    CHECK(mem[i].name == r[i].name && mem[i].location == r[i].location &&
          mem[i].offset == r[i].offset && mem[i].length == r[i].length);
  CHECK(m.save_buffer_external(ext).size() == ext_buf.size());
  CHECK(code_of([&] { m.save_buffer_external(onnxslim::SaveOptions{}); }) == ONNXSLIM_EINVAL);
  // a bad option is the library's error
  onnxslim::SaveOptions odd;
  odd.align = 3;
  odd.layout = ONNXSLIM_LAYOUT_ONE_FILE;
  CHECK(code_of([&] { m.save(tmpdir + "/odd.onnx", odd); }) == ONNXSLIM_EINVAL);
}

void test_insert_cleanup() {
  onnxslim::Model m = onnxslim::Model::open(bert);
  onnxslim::Graph g = m.graph();
  std::size_t n0 = g.nodes().size();
  onnxslim::Node p = *g.producer("logits");
  onnxslim::Node cast = g.insert_cast_after("logits", ONNXSLIM_DTYPE_DOUBLE);
  CHECK(cast.op_type() == "Cast" && cast.outputs()[0] == "logits");
  CHECK(p.outputs()[0] != "logits" && cast.inputs()[0] == p.outputs()[0]);
  CHECK(cast.find_attr("to")->as_int() == ONNXSLIM_DTYPE_DOUBLE);
  onnxslim::Node id = g.insert_after("logits", "Identity", {}, {}, "after_cast");
  CHECK(id.op_type() == "Identity" && id.outputs()[0] == "logits");
  onnxslim::Node consumer = g.consumers("input_ids")[0];
  auto ins = consumer.inputs();
  std::size_t k = std::find(ins.begin(), ins.end(), "input_ids").index();
  CHECK(std::find(ins.begin(), ins.end(), "input_ids") - ins.begin() ==
        static_cast<std::ptrdiff_t>(k));
  CHECK(k < ins.size());
  onnxslim::Node before = g.insert_before(consumer, k, "Identity", "", "ids_copy");
  CHECK(before.inputs()[0] == "input_ids" && consumer.inputs()[k] == before.outputs()[0]);
  CHECK(before.outputs()[0] == "ids_copy");
  onnxslim::Node cb = g.insert_cast_before(consumer, k, ONNXSLIM_DTYPE_INT64);
  CHECK(cb.op_type() == "Cast" && consumer.inputs()[k] == cb.outputs()[0]);
  CHECK(g.nodes().size() == n0 + 4);
  CHECK(m.check().ok());

  // a node nobody reads goes; a graph in the wrong order is sorted
  g.add_node("Relu", {"input_ids"}, {"dangling"}, "dangling_relu");
  std::size_t removed = g.remove_unused();
  CHECK(removed >= 1 && !g.find_node("dangling_relu"));
  g.move_node(*g.producer("logits"), 0);
  CHECK(!m.check().ok());
  g.toposort(ONNXSLIM_CLEANUP_RECURSIVE);
  CHECK(m.check().ok());
  std::vector<onnxslim::Node> order = g.nodes().to_vector();
  std::reverse(order.begin(), order.end());
  g.reorder_nodes(order);
  CHECK(g.nodes()[0] == order[0]);
  g.toposort();
  CHECK(m.check().ok());
  g.rename_value("input_ids", "ids");
  CHECK(g.inputs()[0].name() == "ids" && g.consumers("input_ids").empty());
  CHECK(m.check().ok());
}

void test_build_from_nothing() {
  static const unsigned char empty_model[] = {0x3a, 0x00};  // ModelProto{graph {}}
  onnxslim::Model m = onnxslim::load(onnxslim::bytes_of(empty_model));
  m.set_ir_version(8);
  m.set_opset("", 17);
  onnxslim::Graph g = m.graph();
  g.set_name("built");
  g.add_input("x").set_tensor_type(ONNXSLIM_DTYPE_FLOAT, {2});
  std::vector<float> b{1.0f, -1.0f};
  g.add_initializer("b", ONNXSLIM_DTYPE_FLOAT, {2}, onnxslim::bytes_of(b));
  g.add_node("Add", {"x", "b"}, {"y"}, "add");
  g.add_output("y").set_tensor_type(ONNXSLIM_DTYPE_FLOAT, {2});
  CHECK(m.check().ok());
  CHECK(g.nodes().size() == 1 && g.find_node("add")->inputs()[1] == "b");
  onnxslim::Model again = onnxslim::load(onnxslim::bytes_of(m.save_buffer()));
  CHECK(again.fingerprint() == m.fingerprint() && again.graph().name() == "built");
}

// A model built here: x + b (b FLOAT [2]) at `opset`, and a Gather of table
// e (FLOAT [2, 2]) whose rows a Relu reads.
static onnxslim::Model notes_model(std::int64_t opset) {
  static const unsigned char empty_model[] = {0x3a, 0x00};  // ModelProto{graph {}}
  onnxslim::Model m = onnxslim::load(onnxslim::bytes_of(empty_model));
  m.set_ir_version(8);
  m.set_opset("", opset);
  onnxslim::Graph g = m.graph();
  g.add_input("x").set_tensor_type(ONNXSLIM_DTYPE_FLOAT, {2});
  g.add_input("i").set_tensor_type(ONNXSLIM_DTYPE_INT64, {2});
  std::vector<float> b{1.0f, -1.0f}, e{1, 2, 3, 4};
  g.add_initializer("b", ONNXSLIM_DTYPE_FLOAT, {2}, onnxslim::bytes_of(b));
  g.add_initializer("e", ONNXSLIM_DTYPE_FLOAT, {2, 2}, onnxslim::bytes_of(e));
  g.add_node("Add", {"x", "b"}, {"y"}, "add");
  g.add_node("Gather", {"e", "i"}, {"r"}, "gather");
  g.add_node("Relu", {"r"}, {"z"}, "relu");
  g.add_output("y").set_tensor_type(ONNXSLIM_DTYPE_FLOAT, {2});
  g.add_output("z").set_tensor_type(ONNXSLIM_DTYPE_FLOAT, {2, 2});
  return m;
}

void test_convert_notes() {
  // cast-after-gather: b gets a Cast before the Add (onnxruntime folds it
  // back: a fold-back note), e a Cast after the Gather (no note)
  onnxslim::Model m = notes_model(17);
  onnxslim::ConvertOptions o;
  o.to = ONNXSLIM_DTYPE_FLOAT16;
  onnxslim::ConvertReport r = m.convert(o);
  CHECK(r.size() == 2);
  std::size_t n = 0;
  for (const onnxslim::ConvertNote &note : r.notes()) {
    CHECK(note.code == ONNXSLIM_CONVERT_NOTE_FOLD_BACK && note.kind == "fold_back");
    CHECK(note.name == "b" && note.op == "Cast" && note.has_input && note.input == 0);
    CHECK(note.bytes == 4 && note.message.find("'b'") != std::string_view::npos);
    ++n;
  }
  CHECK(n == 1);
  // the Gather table only: nothing to say
  onnxslim::Model m2 = notes_model(17);
  o.select = {"e"};
  CHECK(m2.convert(o).notes().size() == 0);
  // storage-only at opset 99 (past the schema tables: not refused): the Add reads
  // b at input 1, the Gather passes e's rows on to the Relu
  onnxslim::Model m3 = notes_model(99);
  o.select.clear();
  o.policy = ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY;
  onnxslim::ConvertReport r3 = m3.convert(o);
  CHECK(r3.notes().size() == 2);
  if (r3.notes().size() == 2) {
    onnxslim::ConvertNote a = r3.notes()[0], g = r3.notes()[1];
    CHECK(a.kind == "storage_only_read" && a.name == "b" && a.op == "Add" && a.node == "add");
    CHECK(a.has_input && a.input == 1 && a.bytes == 4);
    CHECK(g.code == ONNXSLIM_CONVERT_NOTE_STORAGE_ONLY_GATHER && g.name == "e");
    CHECK(g.node == "gather" && g.input == 0 && g.bytes == 8);
  }
}

void test_span() {
  std::vector<float> v{1, 2, 3, 4};
  onnxslim::span<const float> s = v;
  CHECK(s.size() == 4 && s.data() == v.data() && !s.empty() && s.size_bytes() == 16);
  CHECK(s.subspan(1, 2).size() == 2 && s.subspan(1, 2)[0] == 2);
  CHECK(s.subspan(3).size() == 1 && s.subspan(9).empty());
  float sum = 0;
  for (float x : s) sum += x;
  CHECK(sum == 10);
  onnxslim::span<float> w = v;  // mutable
  w[0] = 5;
  CHECK(v[0] == 5);
  onnxslim::bytes_view bv = onnxslim::bytes_of(v);
  CHECK(bv.size() == 16 && static_cast<const void *>(bv.data()) == v.data());
  onnxslim::span<const std::int64_t> empty;
  CHECK(empty.empty() && empty.begin() == empty.end());
  std::int64_t arr[3] = {1, 2, 3};
  onnxslim::span<const std::int64_t> from_array = arr;
  CHECK(from_array.size() == 3);
  // a temporary vector as an argument
  auto count = [](onnxslim::span<const std::int64_t> x) { return x.size(); };
  CHECK(count(std::vector<std::int64_t>{1, 2, 3}) == 3);
  CHECK(count({4, 5}) == 2);
  const std::vector<float> cv{1, 2};
  onnxslim::span<const float> from_const = cv;
  CHECK(from_const.data() == cv.data());
  onnxslim::cstr none;
  CHECK(none.c_str() == nullptr);
  std::string str = "abc";
  onnxslim::cstr from_string = str;
  CHECK(from_string.c_str() == str.c_str());
}

struct test_case {
  const char *name;
  void (*fn)();
};
const test_case tests[] = {
    {"version_and_types", test_version_and_types},
    {"error", test_error},
    {"model", test_model},
    {"graph_ranges", test_graph_ranges},
    {"node_attr", test_node_attr},
    {"tensor", test_tensor},
    {"value_info_type", test_value_info_type},
    {"subgraphs", test_subgraphs},
    {"function", test_function},
    {"check", test_check},
    {"diff", test_diff},
    {"simplify", test_simplify},
    {"infer_shapes", test_infer_shapes},
    {"convert", test_convert},
    {"convert_notes", test_convert_notes},
    {"save_fingerprint", test_save_fingerprint},
    {"insert_cleanup", test_insert_cleanup},
    {"build_from_nothing", test_build_from_nothing},
    {"span", test_span},
};

}  // namespace

int main(int argc, char **argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s BERT.onnx IF_MODEL.onnx TMPDIR [TEST...]\n", argv[0]);
    return 2;
  }
  bert = argv[1];
  if_model = argv[2];
  tmpdir = argv[3];
  int passed = 0, failed = 0;
  for (int a = 4; a < argc; a++) {
    if (std::none_of(std::begin(tests), std::end(tests),
                     [&](const test_case &t) { return std::strcmp(t.name, argv[a]) == 0; })) {
      std::fprintf(stderr, "no test named '%s'\n", argv[a]);
      return 2;
    }
  }
  for (const test_case &t : tests) {
    if (argc > 4 && std::none_of(argv + 4, argv + argc,
                                 [&](const char *n) { return std::strcmp(n, t.name) == 0; }))
      continue;
    checks_failed = 0;
    try {
      t.fn();
    } catch (const onnxslim::error &e) {
      ++checks_failed;
      std::printf("  unexpected onnxslim::error %d: %s\n", e.code(), e.what());
    } catch (const std::exception &e) {
      ++checks_failed;
      std::printf("  unexpected exception: %s\n", e.what());
    }
    if (checks_failed) {
      ++failed;
      std::printf("FAIL %s\n", t.name);
    } else {
      ++passed;
      std::printf("ok   %s\n", t.name);
    }
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
