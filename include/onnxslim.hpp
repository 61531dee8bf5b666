/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - C++17 wrapper over the C API, header only.
 *
 *   #include <onnxslim.hpp>      (needs C++17; links with -lonnxslim)
 *
 *   onnxslim::Model m = onnxslim::Model::open("model.onnx");
 *   for (onnxslim::Node n : m.graph().nodes()) std::cout << n.op_type() << '\n';
 *   m.convert_gather_tables(ONNXSLIM_DTYPE_BFLOAT16);
 *   m.save("out.onnx");
 *
 * Everything here calls the public C API (onnxslim.h) and nothing else; the
 * C handle behind each object is get(), so both can be mixed.
 *
 * Ownership and lifetime (the C library's rule, in C++ terms):
 *   - Model owns an onnxslim_model (freed by its destructor; move-only).
 *     CheckReport, ConvertReport, SaveReport and DiffReport own their C reports.
 *   - Graph, Node, Attr, Tensor, ValueInfo, Type and Function are BORROWED
 *     views: a pointer-sized, copyable handle into a model. A view, and every
 *     std::string_view, span and bytes_view a view returns, is valid while
 *     the Model it came from lives (moving the Model keeps them valid), and
 *     a view of an item removed by an edit becomes invalid (using it throws
 *     onnxslim::error with ONNXSLIM_EINVAL). Strings and spans from a report
 *     live as long as the report.
 *   - A range (nodes(), initializers(), inputs(), ...) holds the item count
 *     taken when it was made: do not add or remove items while iterating.
 *
 * Errors: every failing C call throws onnxslim::error (a std::runtime_error)
 * whose what() is the library's message (onnxslim_error_last()) and whose
 * code() is the ONNXSLIM_E* code. Lookups that may find nothing
 * (find_node(), producer(), type(), ...) return std::optional instead.
 * Destructors never throw.
 *
 * Threads: as for the C API, one model (and every view of it) is used by
 * one thread at a time; different models in different threads at once.
 * @since 0.1.0
 */
#ifndef ONNXSLIM_HPP
#define ONNXSLIM_HPP

#if __cplusplus < 201703L && !(defined(_MSVC_LANG) && _MSVC_LANG >= 201703L)
#  error "onnxslim.hpp needs C++17 or later (-std=c++17)"
#endif

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "onnxslim.h"

namespace onnxslim {

/* ---- errors -------------------------------------------------------------- */

/** What every failing call throws: the library's message and its code. */
class error : public std::runtime_error {
 public:
  error(int code, const std::string &message) : std::runtime_error(message), code_(code) {}
  /** The ONNXSLIM_E* code (negative). */
  int code() const noexcept { return code_; }
  /** onnxslim_strerror(code()), e.g. "malformed protobuf". */
  const char *code_text() const noexcept { return onnxslim_strerror(code_); }

 private:
  int code_;
};

namespace detail {
[[noreturn]] inline void raise(int code, const char *message) {
  throw error(code,
              message && *message ? std::string(message) : std::string(onnxslim_strerror(code)));
}
/** After a call that returned `code` (< 0). */
[[noreturn]] inline void raise_last(int code) { raise(code, onnxslim_error_last()); }
/** After a call that returned NULL. */
[[noreturn]] inline void raise_last() {
  int code = onnxslim_error_last_code();
  raise_last(code < 0 ? code : ONNXSLIM_EINVAL);
}
inline int check(int rc) {
  if (rc < 0) raise_last(rc);
  return rc;
}
template <class T>
T *need(T *p) {
  if (!p) raise_last();
  return p;
}
inline std::string_view str(const char *s) {
  if (!s) raise_last();
  return std::string_view(s);
}
template <class T>
T *handle(T *p) {
  if (!p) raise(ONNXSLIM_EINVAL, "libonnxslim: null handle");
  return p;
}
/** A lookup's result: nullopt when the library said ONNXSLIM_ENOTFOUND. */
template <class View, class T>
std::optional<View> found(T *p) {
  if (p) return View(p);
  int code = onnxslim_error_last_code();
  if (code == ONNXSLIM_ENOTFOUND) return std::nullopt;
  raise_last(code < 0 ? code : ONNXSLIM_EINVAL);
}
}  // namespace detail

/* ---- span, bytes_view, cstr ------------------------------------------------ */

/** A pointer and a count (C++17 has no std::span). Does not own its data. */
template <class T>
class span {
 public:
  using element_type = T;
  using value_type = std::remove_cv_t<T>;
  using size_type = std::size_t;
  using pointer = T *;
  using reference = T &;
  using iterator = T *;

  constexpr span() noexcept = default;
  constexpr span(T *data, std::size_t size) noexcept : data_(data), size_(size) {}
  /** Any contiguous container: std::vector, std::array, std::string, C array. */
  template <class C, class P = std::remove_pointer_t<decltype(std::data(std::declval<C &>()))>,
            class = std::enable_if_t<std::is_convertible_v<P (*)[], T (*)[]>>>
  constexpr span(C &c) noexcept : data_(std::data(c)), size_(std::size(c)) {}
  /** A const container, also a temporary one (an argument: valid for the call). */
  template <class C,
            class P = std::remove_pointer_t<decltype(std::data(std::declval<const C &>()))>,
            class = std::enable_if_t<std::is_convertible_v<P (*)[], T (*)[]>>>
  constexpr span(const C &c) noexcept : data_(std::data(c)), size_(std::size(c)) {}
  /** A braced list, for arguments: f({1, 2, 3}). Valid for the call only. */
  template <class U = T, class = std::enable_if_t<std::is_const_v<U>>>
  constexpr span(std::initializer_list<value_type> list) noexcept {
    data_ = list.begin();
    size_ = list.size();
  }

  constexpr T *data() const noexcept { return data_; }
  constexpr std::size_t size() const noexcept { return size_; }
  constexpr std::size_t size_bytes() const noexcept { return size_ * sizeof(T); }
  constexpr bool empty() const noexcept { return size_ == 0; }
  constexpr T *begin() const noexcept { return data_; }
  constexpr T *end() const noexcept { return data_ + size_; }
  /** Element i; not checked. */
  constexpr T &operator[](std::size_t i) const noexcept { return data_[i]; }
  /** The elements [offset, offset + count), clamped to the span. */
  constexpr span subspan(std::size_t offset, std::size_t count = SIZE_MAX) const noexcept {
    if (offset > size_) offset = size_;
    if (count > size_ - offset) count = size_ - offset;
    return span(data_ + offset, count);
  }

 private:
  T *data_ = nullptr;
  std::size_t size_ = 0;
};

/** Read-only bytes: tensor data, caller buffers. */
using bytes_view = span<const std::byte>;

/** The bytes of a contiguous container or span (for add_initializer(), set_data()). */
template <class C>
bytes_view bytes_of(const C &c) noexcept {
  return bytes_view(reinterpret_cast<const std::byte *>(std::data(c)),
                    std::size(c) * sizeof(*std::data(c)));
}

/** A NUL-terminated string argument, not copied: a const char * (may be
 * nullptr where the C API allows NULL) or a std::string. */
class cstr {
 public:
  constexpr cstr() noexcept = default;
  constexpr cstr(const char *s) noexcept : s_(s) {}
  cstr(const std::string &s) noexcept : s_(s.c_str()) {}
  constexpr const char *c_str() const noexcept { return s_; }

 private:
  const char *s_ = nullptr;
};

/* ---- ranges ------------------------------------------------------------------ */

/** Items 0..size() of a parent, read by index: usable in range-for and with
 * the standard algorithms (input iterators whose * gives the item by value). */
template <class Parent, class Value>
class range {
 public:
  using getter = Value (*)(Parent *, std::size_t);
  using value_type = Value;

  class iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = Value;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = Value;

    iterator() = default;
    iterator(Parent *p, std::size_t i, getter g) : p_(p), i_(i), g_(g) {}
    Value operator*() const { return g_(p_, i_); }
    iterator &operator++() {
      ++i_;
      return *this;
    }
    iterator operator++(int) {
      iterator old = *this;
      ++i_;
      return old;
    }
    friend bool operator==(const iterator &a, const iterator &b) {
      return a.p_ == b.p_ && a.i_ == b.i_;
    }
    friend bool operator!=(const iterator &a, const iterator &b) { return !(a == b); }
    /** Distance between two iterators of one range. */
    friend difference_type operator-(const iterator &a, const iterator &b) {
      return static_cast<difference_type>(a.i_) - static_cast<difference_type>(b.i_);
    }
    /** The index of the item it points to. */
    std::size_t index() const noexcept { return i_; }

   private:
    Parent *p_ = nullptr;
    std::size_t i_ = 0;
    getter g_ = nullptr;
  };

  range(Parent *p, std::size_t n, getter g) : p_(p), n_(n), g_(g) {}
  iterator begin() const { return iterator(p_, 0, g_); }
  iterator end() const { return iterator(p_, n_, g_); }
  std::size_t size() const noexcept { return n_; }
  bool empty() const noexcept { return n_ == 0; }
  /** Item i; throws onnxslim::error (ONNXSLIM_ERANGE) when i >= size(). */
  Value operator[](std::size_t i) const {
    if (i >= n_) detail::raise(ONNXSLIM_ERANGE, "libonnxslim: range index out of range");
    return g_(p_, i);
  }
  std::vector<Value> to_vector() const {
    std::vector<Value> v;
    v.reserve(n_);
    for (std::size_t i = 0; i < n_; i++) v.push_back(g_(p_, i));
    return v;
  }

 private:
  Parent *p_;
  std::size_t n_;
  getter g_;
};

/* ---- views ------------------------------------------------------------------- */

class Graph;
class Node;
class Tensor;
class Type;

/** One dimension of a shape (Type::dim()). */
struct Dim {
  int kind;               /**< ONNXSLIM_DIM_UNKNOWN, _VALUE or _PARAM */
  std::int64_t value;     /**< for ONNXSLIM_DIM_VALUE, else 0 */
  std::string_view param; /**< for ONNXSLIM_DIM_PARAM, else "" */
};

/** A type (TypeProto). Borrowed from the model. */
class Type {
 public:
  explicit Type(onnxslim_type *t) : t_(detail::handle(t)) {}
  onnxslim_type *get() const noexcept { return t_; }
  /** ONNXSLIM_TYPE_* */
  int kind() const { return onnxslim_type_kind(t_); }
  std::string_view denotation() const { return detail::str(onnxslim_type_denotation(t_)); }
  /** ONNXSLIM_DTYPE_* of a tensor type (the key type of a map), 0 when absent
   * (onnxslim_type_dtype(); @since 0.2.0). */
  std::int32_t dtype() const { return onnxslim_type_dtype(t_); }
  /** Deprecated (0.2.0): dtype(), which it is. */
  ONNXSLIM_DEPRECATED("use dtype") std::int32_t elem_type() const { return dtype(); }
  /** Element type of a sequence or optional, value type of a map. */
  std::optional<Type> inner() const { return detail::found<Type>(onnxslim_type_inner(t_)); }
  bool has_shape() const { return onnxslim_type_has_shape(t_) != 0; }
  std::size_t rank() const { return onnxslim_type_rank(t_); }
  Dim dim(std::size_t i) const {
    Dim d{0, 0, {}};
    const char *param = nullptr;
    d.kind = detail::check(onnxslim_type_dim(t_, i, &d.value, &param));
    d.param = param ? std::string_view(param) : std::string_view();
    return d;
  }
  range<const onnxslim_type, Dim> dims() const { return {t_, rank(), &dim_at}; }
  friend bool operator==(Type a, Type b) { return a.t_ == b.t_; }
  friend bool operator!=(Type a, Type b) { return a.t_ != b.t_; }

 private:
  static Dim dim_at(const onnxslim_type *t, std::size_t i) {
    return Type(const_cast<onnxslim_type *>(t)).dim(i);
  }
  onnxslim_type *t_;
};

/** A graph input, output or value_info entry. Borrowed from the model. */
class ValueInfo {
 public:
  explicit ValueInfo(onnxslim_value_info *v) : v_(detail::handle(v)) {}
  onnxslim_value_info *get() const noexcept { return v_; }
  std::string_view name() const { return detail::str(onnxslim_value_info_name(v_)); }
  std::string_view doc_string() const { return detail::str(onnxslim_value_info_doc_string(v_)); }
  /** The value's type; nullopt when it has none. */
  std::optional<Type> type() const { return detail::found<Type>(onnxslim_value_info_type(v_)); }

  void set_name(cstr name) { detail::check(onnxslim_value_info_set_name(v_, name.c_str())); }
  /** A copy of `type` (from any model), or no type with std::nullopt. */
  void set_type(std::optional<Type> type) {
    detail::check(onnxslim_value_info_set_type(v_, type ? type->get() : nullptr));
  }
  /** A tensor type of shape dims (a negative dim: unknown); params, when
   * given, has one entry per dim and a non-empty entry makes it symbolic. */
  void set_tensor_type(std::int32_t dtype, span<const std::int64_t> dims,
                       const std::vector<std::string> &params = {}) {
    std::vector<const char *> p;
    if (!params.empty()) {
      if (params.size() != dims.size())
        detail::raise(ONNXSLIM_EINVAL,
                      "libonnxslim: set_tensor_type: params and dims differ in size");
      for (const std::string &s : params) p.push_back(s.empty() ? nullptr : s.c_str());
    }
    detail::check(onnxslim_value_info_set_tensor_type(v_, dtype, dims.data(),
                                                      p.empty() ? nullptr : p.data(), dims.size()));
  }
  /** A tensor type without a shape. */
  void set_tensor_type(std::int32_t dtype) {
    detail::check(onnxslim_value_info_set_tensor_type(v_, dtype, nullptr, nullptr, SIZE_MAX));
  }
  /** Changes the element type, keeping the shape (onnxslim_value_info_set_dtype();
   * @since 0.2.0). */
  void set_dtype(std::int32_t dtype) { detail::check(onnxslim_value_info_set_dtype(v_, dtype)); }
  /** Deprecated (0.2.0): set_dtype(), which it is. */
  ONNXSLIM_DEPRECATED("use set_dtype") void set_elem_type(std::int32_t dtype) { set_dtype(dtype); }
  friend bool operator==(ValueInfo a, ValueInfo b) { return a.v_ == b.v_; }
  friend bool operator!=(ValueInfo a, ValueInfo b) { return a.v_ != b.v_; }

 private:
  onnxslim_value_info *v_;
};

/** A dense tensor: initializer, Constant value, attribute. Borrowed. */
class Tensor {
 public:
  explicit Tensor(onnxslim_tensor *t) : t_(detail::handle(t)) {}
  onnxslim_tensor *get() const noexcept { return t_; }
  std::string_view name() const { return detail::str(onnxslim_tensor_name(t_)); }
  std::string_view doc_string() const { return detail::str(onnxslim_tensor_doc_string(t_)); }
  /** ONNXSLIM_DTYPE_* as stored */
  std::int32_t dtype() const { return onnxslim_tensor_dtype(t_); }
  std::size_t rank() const { return onnxslim_tensor_rank(t_); }
  std::int64_t dim(std::size_t i) const {
    if (i >= rank()) detail::raise(ONNXSLIM_ERANGE, "libonnxslim: tensor dim index out of range");
    return onnxslim_tensor_dim(t_, i);
  }
  std::vector<std::int64_t> dims() const {
    std::vector<std::int64_t> d(rank());
    for (std::size_t i = 0; i < d.size(); i++) d[i] = onnxslim_tensor_dim(t_, i);
    return d;
  }
  std::int64_t element_count() const { return onnxslim_tensor_element_count(t_); }
  std::uint64_t byte_size() const {
    std::uint64_t n = 0;
    detail::check(onnxslim_tensor_byte_size(t_, &n));
    return n;
  }
  /** ONNXSLIM_STORAGE_* */
  int storage() const { return onnxslim_tensor_storage(t_); }
  /** The data, packed little-endian (raw_data layout), borrowed from the
   * model: no copy for raw and external data. Not aligned: copy it out
   * (values(), read()) rather than casting the pointer. */
  bytes_view data() const {
    const void *p = nullptr;
    std::size_t n = 0;
    detail::check(onnxslim_tensor_data(t_, &p, &n));
    return bytes_view(static_cast<const std::byte *>(p), n);
  }
  /** Copies out.size() bytes from byte `offset` of the data. */
  void read(std::uint64_t offset, span<std::byte> out) const {
    detail::check(onnxslim_tensor_read(t_, offset, out.data(), out.size()));
  }
  /** A copy of the values as T, whose size must be the element size of dtype()
   * (float for FLOAT, std::uint16_t for BFLOAT16, ...); else ONNXSLIM_ETYPE. */
  template <class T>
  std::vector<T> values() const {
    static_assert(std::is_trivially_copyable_v<T>, "values<T>: T must be trivially copyable");
    if (onnxslim_dtype_bits(dtype()) != sizeof(T) * 8)
      detail::raise(ONNXSLIM_ETYPE,
                    "libonnxslim: values<T>: sizeof(T) is not the tensor's element size");
    bytes_view d = data();
    std::vector<T> v(d.size() / sizeof(T));
    if (!v.empty()) std::memcpy(v.data(), d.data(), v.size() * sizeof(T));
    return v;
  }
  std::size_t string_count() const { return onnxslim_tensor_string_count(t_); }
  /** Element i of a STRING tensor (bytes, may hold NULs). */
  std::string_view string_at(std::size_t i) const {
    const char *p = nullptr;
    std::size_t n = 0;
    detail::check(onnxslim_tensor_string(t_, i, &p, &n));
    return std::string_view(p, n);
  }

  void set_name(cstr name) { detail::check(onnxslim_tensor_set_name(t_, name.c_str())); }
  /** New type, dims and data; flags ONNXSLIM_COPY or ONNXSLIM_BORROW (the
   * bytes then stay unchanged while the model lives). */
  void set_data(std::int32_t dtype, span<const std::int64_t> dims, bytes_view data,
                unsigned int flags = ONNXSLIM_COPY) {
    detail::check(onnxslim_tensor_set_data(t_, dtype, dims.data(), dims.size(), data.data(),
                                           data.size(), flags));
  }
  friend bool operator==(Tensor a, Tensor b) { return a.t_ == b.t_; }
  friend bool operator!=(Tensor a, Tensor b) { return a.t_ != b.t_; }

 private:
  onnxslim_tensor *t_;
};

/** An attribute of a node. Borrowed. The as_*() getters throw
 * onnxslim::error (ONNXSLIM_ETYPE) for an attribute of another type. */
class Attr {
 public:
  explicit Attr(onnxslim_attr *a) : a_(detail::handle(a)) {}
  onnxslim_attr *get() const noexcept { return a_; }
  std::string_view name() const { return detail::str(onnxslim_attr_name(a_)); }
  std::string_view doc_string() const { return detail::str(onnxslim_attr_doc_string(a_)); }
  std::string_view ref_attr_name() const { return detail::str(onnxslim_attr_ref_attr_name(a_)); }
  /** ONNXSLIM_ATTR_* */
  int type() const { return onnxslim_attr_type(a_); }
  float as_float() const {
    float v = 0;
    detail::check(onnxslim_attr_float(a_, &v));
    return v;
  }
  std::int64_t as_int() const {
    std::int64_t v = 0;
    detail::check(onnxslim_attr_int(a_, &v));
    return v;
  }
  std::string_view as_string() const {
    const char *p = nullptr;
    std::size_t n = 0;
    detail::check(onnxslim_attr_string(a_, &p, &n));
    return std::string_view(p, n);
  }
  span<const float> as_floats() const {
    const float *p = nullptr;
    std::size_t n = 0;
    detail::check(onnxslim_attr_floats(a_, &p, &n));
    return span<const float>(p, n);
  }
  span<const std::int64_t> as_ints() const {
    const std::int64_t *p = nullptr;
    std::size_t n = 0;
    detail::check(onnxslim_attr_ints(a_, &p, &n));
    return span<const std::int64_t>(p, n);
  }
  Tensor as_tensor() const { return Tensor(detail::need(onnxslim_attr_tensor(a_))); }
  inline Graph as_graph() const;
  /** Number of elements of a list attribute (0 for the others). */
  std::size_t list_size() const { return onnxslim_attr_list_count(a_); }
  std::string_view string_at(std::size_t i) const {
    const char *p = nullptr;
    std::size_t n = 0;
    detail::check(onnxslim_attr_strings(a_, i, &p, &n));
    return std::string_view(p, n);
  }
  Tensor tensor_at(std::size_t i) const {
    return Tensor(detail::need(onnxslim_attr_tensors(a_, i)));
  }
  inline Graph graph_at(std::size_t i) const;
  friend bool operator==(Attr a, Attr b) { return a.a_ == b.a_; }
  friend bool operator!=(Attr a, Attr b) { return a.a_ != b.a_; }

 private:
  onnxslim_attr *a_;
};

/** A node of a graph or of a function body. Borrowed. */
class Node {
 public:
  explicit Node(onnxslim_node *n) : n_(detail::handle(n)) {}
  onnxslim_node *get() const noexcept { return n_; }
  std::string_view name() const { return detail::str(onnxslim_node_name(n_)); }
  std::string_view op_type() const { return detail::str(onnxslim_node_op_type(n_)); }
  std::string_view domain() const { return detail::str(onnxslim_node_domain(n_)); }
  std::string_view doc_string() const { return detail::str(onnxslim_node_doc_string(n_)); }
  /** The graph holding the node; nullopt for a node of a function body. */
  inline std::optional<Graph> graph() const;
  /** Input names ("" for an omitted optional input). */
  range<const onnxslim_node, std::string_view> inputs() const {
    return {n_, onnxslim_node_input_count(n_), &input_at};
  }
  range<const onnxslim_node, std::string_view> outputs() const {
    return {n_, onnxslim_node_output_count(n_), &output_at};
  }
  range<const onnxslim_node, Attr> attrs() const {
    return {n_, onnxslim_node_attr_count(n_), &attr_at};
  }
  std::optional<Attr> find_attr(cstr name) const {
    return detail::found<Attr>(onnxslim_node_find_attr(n_, name.c_str()));
  }
  /** The graphs of its GRAPH and GRAPHS attributes (If: 2, Loop, Scan: 1). */
  inline range<const onnxslim_node, Graph> subgraphs() const;

  void set_name(cstr name) { detail::check(onnxslim_node_set_name(n_, name.c_str())); }
  void set_op_type(cstr op) { detail::check(onnxslim_node_set_op_type(n_, op.c_str())); }
  void set_domain(cstr domain) { detail::check(onnxslim_node_set_domain(n_, domain.c_str())); }
  /** Input i (i == input count appends). */
  void set_input(std::size_t i, cstr name) {
    detail::check(onnxslim_node_set_input(n_, i, name.c_str()));
  }
  void set_output(std::size_t i, cstr name) {
    detail::check(onnxslim_node_set_output(n_, i, name.c_str()));
  }
  void set_inputs(const std::vector<std::string> &names) {
    std::vector<const char *> p = c_strings(names);
    detail::check(onnxslim_node_set_inputs(n_, p.data(), p.size()));
  }
  void set_outputs(const std::vector<std::string> &names) {
    std::vector<const char *> p = c_strings(names);
    detail::check(onnxslim_node_set_outputs(n_, p.data(), p.size()));
  }
  void set_attr_float(cstr name, float v) {
    detail::check(onnxslim_node_set_attr_float(n_, name.c_str(), v));
  }
  void set_attr_int(cstr name, std::int64_t v) {
    detail::check(onnxslim_node_set_attr_int(n_, name.c_str(), v));
  }
  void set_attr_string(cstr name, std::string_view v) {
    detail::check(onnxslim_node_set_attr_string(n_, name.c_str(), v.data(), v.size()));
  }
  void set_attr_floats(cstr name, span<const float> v) {
    detail::check(onnxslim_node_set_attr_floats(n_, name.c_str(), v.data(), v.size()));
  }
  void set_attr_ints(cstr name, span<const std::int64_t> v) {
    detail::check(onnxslim_node_set_attr_ints(n_, name.c_str(), v.data(), v.size()));
  }
  void set_attr_strings(cstr name, const std::vector<std::string> &v) {
    std::vector<const char *> p = c_strings(v);
    std::vector<std::size_t> sizes;
    for (const std::string &s : v) sizes.push_back(s.size());
    detail::check(
        onnxslim_node_set_attr_strings(n_, name.c_str(), p.data(), sizes.data(), p.size()));
  }
  /** A copy of `t` (from any model). */
  void set_attr_tensor(cstr name, Tensor t) {
    detail::check(onnxslim_node_set_attr_tensor(n_, name.c_str(), t.get()));
  }
  /** Sets a GRAPH attribute to a copy of `g` (from any model); returns the copy. */
  inline Graph set_attr_graph(cstr name, Graph g);
  /** Sets a GRAPH attribute to a new empty graph, returned to be filled. */
  inline Graph set_attr_graph(cstr name);
  void remove_attr(cstr name) { detail::check(onnxslim_node_remove_attr(n_, name.c_str())); }
  friend bool operator==(Node a, Node b) { return a.n_ == b.n_; }
  friend bool operator!=(Node a, Node b) { return a.n_ != b.n_; }

 private:
  friend class Graph;
  static std::vector<const char *> c_strings(const std::vector<std::string> &v) {
    std::vector<const char *> p;
    p.reserve(v.size());
    for (const std::string &s : v) p.push_back(s.c_str());
    return p;
  }
  static std::string_view input_at(const onnxslim_node *n, std::size_t i) {
    return detail::str(onnxslim_node_input(n, i));
  }
  static std::string_view output_at(const onnxslim_node *n, std::size_t i) {
    return detail::str(onnxslim_node_output(n, i));
  }
  static Attr attr_at(const onnxslim_node *n, std::size_t i) {
    return Attr(detail::need(onnxslim_node_attr(n, i)));
  }
  inline static Graph subgraph_at(const onnxslim_node *n, std::size_t i);
  onnxslim_node *n_;
};

/** The main graph or a subgraph (If/Loop/Scan body). Borrowed. */
class Graph {
 public:
  explicit Graph(onnxslim_graph *g) : g_(detail::handle(g)) {}
  onnxslim_graph *get() const noexcept { return g_; }
  std::string_view name() const { return detail::str(onnxslim_graph_name(g_)); }
  std::string_view doc_string() const { return detail::str(onnxslim_graph_doc_string(g_)); }
  /** The node whose attribute holds this graph; nullopt for the main graph. */
  std::optional<Node> parent_node() const {
    onnxslim_node *n = onnxslim_graph_parent_node(g_);
    return n ? std::optional<Node>(Node(n)) : std::nullopt;
  }

  range<const onnxslim_graph, Node> nodes() const {
    return {g_, onnxslim_graph_node_count(g_), &node_at};
  }
  range<const onnxslim_graph, ValueInfo> inputs() const {
    return {g_, onnxslim_graph_input_count(g_), &input_at};
  }
  range<const onnxslim_graph, ValueInfo> outputs() const {
    return {g_, onnxslim_graph_output_count(g_), &output_at};
  }
  range<const onnxslim_graph, ValueInfo> value_infos() const {
    return {g_, onnxslim_graph_value_info_count(g_), &value_info_at};
  }
  range<const onnxslim_graph, Tensor> initializers() const {
    return {g_, onnxslim_graph_initializer_count(g_), &initializer_at};
  }

  /* lookups in this graph (not its subgraphs) */
  std::optional<Node> find_node(cstr name) const {
    return detail::found<Node>(onnxslim_graph_find_node(g_, name.c_str()));
  }
  std::optional<Tensor> find_initializer(cstr name) const {
    return detail::found<Tensor>(onnxslim_graph_find_initializer(g_, name.c_str()));
  }
  std::optional<ValueInfo> find_value_info(cstr name) const {
    return detail::found<ValueInfo>(onnxslim_graph_find_value_info(g_, name.c_str()));
  }
  /** The node that produces value `name`. */
  std::optional<Node> producer(cstr name) const {
    return detail::found<Node>(onnxslim_graph_producer(g_, name.c_str()));
  }
  /** The nodes that read value `name` (captures by subgraphs included). */
  std::vector<Node> consumers(cstr name) const {
    std::vector<Node> v;
    std::size_t n = onnxslim_graph_consumer_count(g_, name.c_str());
    for (std::size_t i = 0; i < n; i++)
      v.push_back(Node(detail::need(onnxslim_graph_consumer(g_, name.c_str(), i))));
    return v;
  }

  /* edits */
  void set_name(cstr name) { detail::check(onnxslim_graph_set_name(g_, name.c_str())); }
  /** A new node at position `index` (SIZE_MAX: appended). */
  Node add_node(cstr op_type, const std::vector<std::string> &inputs,
                const std::vector<std::string> &outputs, cstr name = {}, cstr domain = {},
                std::size_t index = SIZE_MAX) {
    std::vector<const char *> in = Node::c_strings(inputs), out = Node::c_strings(outputs);
    onnxslim_node *n = nullptr;
    detail::check(onnxslim_graph_add_node(g_, index, op_type.c_str(), domain.c_str(), name.c_str(),
                                          in.data(), in.size(), out.data(), out.size(), &n));
    return Node(n);
  }
  void remove_node(Node n) { detail::check(onnxslim_graph_remove_node(g_, n.get())); }
  void move_node(Node n, std::size_t index) {
    detail::check(onnxslim_graph_move_node(g_, n.get(), index));
  }
  /** Every node once, in the new order. */
  void reorder_nodes(const std::vector<Node> &order) {
    std::vector<onnxslim_node *> p;
    p.reserve(order.size());
    for (Node n : order) p.push_back(n.get());
    detail::check(onnxslim_graph_reorder_nodes(g_, p.data(), p.size()));
  }
  /** A new initializer holding `data` (raw little-endian bytes; see bytes_of()). */
  Tensor add_initializer(cstr name, std::int32_t dtype, span<const std::int64_t> dims,
                         bytes_view data, unsigned int flags = ONNXSLIM_COPY) {
    onnxslim_tensor *t = nullptr;
    detail::check(onnxslim_graph_add_initializer(g_, name.c_str(), dtype, dims.data(), dims.size(),
                                                 data.data(), data.size(), flags, &t));
    return Tensor(t);
  }
  /** A copy of `src` (from any model), renamed to `name` unless nullptr. */
  Tensor add_initializer_copy(Tensor src, cstr name = {}) {
    onnxslim_tensor *t = nullptr;
    detail::check(onnxslim_graph_add_initializer_copy(g_, src.get(), name.c_str(), &t));
    return Tensor(t);
  }
  void remove_initializer(Tensor t) {
    detail::check(onnxslim_graph_remove_initializer(g_, t.get()));
  }
  ValueInfo add_input(cstr name) {
    onnxslim_value_info *v = nullptr;
    detail::check(onnxslim_graph_add_input(g_, name.c_str(), &v));
    return ValueInfo(v);
  }
  ValueInfo add_output(cstr name) {
    onnxslim_value_info *v = nullptr;
    detail::check(onnxslim_graph_add_output(g_, name.c_str(), &v));
    return ValueInfo(v);
  }
  ValueInfo add_value_info(cstr name) {
    onnxslim_value_info *v = nullptr;
    detail::check(onnxslim_graph_add_value_info(g_, name.c_str(), &v));
    return ValueInfo(v);
  }
  void remove_value_info(ValueInfo v) {
    detail::check(onnxslim_graph_remove_value_info(g_, v.get()));
  }
  void rename_value(cstr from, cstr to) {
    detail::check(onnxslim_graph_rename_value(g_, from.c_str(), to.c_str()));
  }

  /* insertion (onnxslim/insert.h); consumers empty: all of them */
  Node insert_after(cstr value, cstr op_type, cstr domain = {},
                    const std::vector<Node> &consumers = {}, cstr fresh_name = {}) {
    std::vector<onnxslim_node *> c = handles(consumers);
    onnxslim_node *n = nullptr;
    detail::check(onnxslim_insert_after(g_, value.c_str(), op_type.c_str(), domain.c_str(),
                                        c.data(), c.size(), fresh_name.c_str(), &n));
    return Node(n);
  }
  Node insert_before(Node consumer, std::size_t input_index, cstr op_type, cstr domain = {},
                     cstr fresh_name = {}) {
    onnxslim_node *n = nullptr;
    detail::check(onnxslim_insert_before(g_, consumer.get(), input_index, op_type.c_str(),
                                         domain.c_str(), fresh_name.c_str(), &n));
    return Node(n);
  }
  Node insert_cast_after(cstr value, std::int32_t to, const std::vector<Node> &consumers = {},
                         cstr fresh_name = {}) {
    std::vector<onnxslim_node *> c = handles(consumers);
    onnxslim_node *n = nullptr;
    detail::check(onnxslim_insert_cast_after(g_, value.c_str(), to, c.data(), c.size(),
                                             fresh_name.c_str(), &n));
    return Node(n);
  }
  Node insert_cast_before(Node consumer, std::size_t input_index, std::int32_t to,
                          cstr fresh_name = {}) {
    onnxslim_node *n = nullptr;
    detail::check(
        onnxslim_insert_cast_before(g_, consumer.get(), input_index, to, fresh_name.c_str(), &n));
    return Node(n);
  }

  /* cleanup (onnxslim/cleanup.h); flags 0 or ONNXSLIM_CLEANUP_RECURSIVE */
  void toposort(unsigned int flags = 0) { detail::check(onnxslim_cleanup_toposort(g_, flags)); }
  /** Returns the number of items removed. */
  std::size_t remove_unused(unsigned int flags = 0) {
    std::size_t removed = 0;
    detail::check(onnxslim_cleanup_remove_unused(g_, flags, &removed));
    return removed;
  }
  friend bool operator==(Graph a, Graph b) { return a.g_ == b.g_; }
  friend bool operator!=(Graph a, Graph b) { return a.g_ != b.g_; }

 private:
  static std::vector<onnxslim_node *> handles(const std::vector<Node> &v) {
    std::vector<onnxslim_node *> p;
    p.reserve(v.size());
    for (Node n : v) p.push_back(n.get());
    return p;
  }
  static Node node_at(const onnxslim_graph *g, std::size_t i) {
    return Node(detail::need(onnxslim_graph_node(g, i)));
  }
  static ValueInfo input_at(const onnxslim_graph *g, std::size_t i) {
    return ValueInfo(detail::need(onnxslim_graph_input(g, i)));
  }
  static ValueInfo output_at(const onnxslim_graph *g, std::size_t i) {
    return ValueInfo(detail::need(onnxslim_graph_output(g, i)));
  }
  static ValueInfo value_info_at(const onnxslim_graph *g, std::size_t i) {
    return ValueInfo(detail::need(onnxslim_graph_value_info(g, i)));
  }
  static Tensor initializer_at(const onnxslim_graph *g, std::size_t i) {
    return Tensor(detail::need(onnxslim_graph_initializer(g, i)));
  }
  onnxslim_graph *g_;
};

inline Graph Attr::as_graph() const { return Graph(detail::need(onnxslim_attr_graph(a_))); }
inline Graph Attr::graph_at(std::size_t i) const {
  return Graph(detail::need(onnxslim_attr_graphs(a_, i)));
}
inline std::optional<Graph> Node::graph() const {
  onnxslim_graph *g = onnxslim_node_graph(n_);
  return g ? std::optional<Graph>(Graph(g)) : std::nullopt;
}
inline range<const onnxslim_node, Graph> Node::subgraphs() const {
  return {n_, onnxslim_node_subgraph_count(n_), &subgraph_at};
}
inline Graph Node::subgraph_at(const onnxslim_node *n, std::size_t i) {
  return Graph(detail::need(onnxslim_node_subgraph(n, i)));
}
inline Graph Node::set_attr_graph(cstr name, Graph g) {
  onnxslim_graph *out = nullptr;
  detail::check(onnxslim_node_set_attr_graph(n_, name.c_str(), g.get(), &out));
  return Graph(out);
}
inline Graph Node::set_attr_graph(cstr name) {
  onnxslim_graph *out = nullptr;
  detail::check(onnxslim_node_set_attr_graph(n_, name.c_str(), nullptr, &out));
  return Graph(out);
}

/** An opset_import entry. */
struct Opset {
  std::string_view domain; /**< "" for the default ONNX domain */
  std::int64_t version;
};

/** A model-local function (FunctionProto). Borrowed. */
class Function {
 public:
  explicit Function(onnxslim_function *f) : f_(detail::handle(f)) {}
  onnxslim_function *get() const noexcept { return f_; }
  std::string_view name() const { return detail::str(onnxslim_function_name(f_)); }
  std::string_view domain() const { return detail::str(onnxslim_function_domain(f_)); }
  std::string_view doc_string() const { return detail::str(onnxslim_function_doc_string(f_)); }
  range<const onnxslim_function, std::string_view> inputs() const {
    return {f_, onnxslim_function_input_count(f_), &input_at};
  }
  range<const onnxslim_function, std::string_view> outputs() const {
    return {f_, onnxslim_function_output_count(f_), &output_at};
  }
  /** The attribute names the function declares. */
  range<const onnxslim_function, std::string_view> attributes() const {
    return {f_, onnxslim_function_attribute_count(f_), &attribute_at};
  }
  range<const onnxslim_function, Node> nodes() const {
    return {f_, onnxslim_function_node_count(f_), &node_at};
  }
  range<const onnxslim_function, Opset> opsets() const {
    return {f_, onnxslim_function_opset_count(f_), &opset_at};
  }

 private:
  static std::string_view input_at(const onnxslim_function *f, std::size_t i) {
    return detail::str(onnxslim_function_input(f, i));
  }
  static std::string_view output_at(const onnxslim_function *f, std::size_t i) {
    return detail::str(onnxslim_function_output(f, i));
  }
  static std::string_view attribute_at(const onnxslim_function *f, std::size_t i) {
    return detail::str(onnxslim_function_attribute(f, i));
  }
  static Node node_at(const onnxslim_function *f, std::size_t i) {
    return Node(detail::need(onnxslim_function_node(f, i)));
  }
  static Opset opset_at(const onnxslim_function *f, std::size_t i) {
    const char *d = nullptr;
    Opset o{{}, 0};
    detail::check(onnxslim_function_opset(f, i, &d, &o.version));
    o.domain = detail::str(d);
    return o;
  }
  onnxslim_function *f_;
};

/* ---- reports (owned) ----------------------------------------------------------- */

namespace detail {
struct free_check_report {
  void operator()(onnxslim_check_report *r) const noexcept { onnxslim_check_report_free(r); }
};
struct free_convert_report {
  void operator()(onnxslim_convert_report *r) const noexcept { onnxslim_convert_report_free(r); }
};
struct free_diff_report {
  void operator()(onnxslim_diff_report *r) const noexcept { onnxslim_diff_report_free(r); }
};
struct free_simplify_report {
  void operator()(onnxslim_simplify_report *r) const noexcept { onnxslim_simplify_report_free(r); }
};
struct free_save_report {
  void operator()(onnxslim_save_report *r) const noexcept { onnxslim_save_report_free(r); }
};
struct free_infer_report {
  void operator()(onnxslim_infer_report *r) const noexcept { onnxslim_infer_report_free(r); }
};
struct free_model {
  void operator()(onnxslim_model *m) const noexcept { onnxslim_model_free(m); }
};
}  // namespace detail

/** One problem found by Model::check(). Strings live as long as the report. */
struct CheckProblem {
  int code; /**< an onnxslim_check_code (ONNXSLIM_CHECK_*) */
  std::string_view location;
  std::string_view message;
};

/** What Model::check() found; owns the C report (move-only). */
class CheckReport {
 public:
  explicit CheckReport(onnxslim_check_report *owned) noexcept : r_(owned) {}
  onnxslim_check_report *get() const noexcept { return r_.get(); }
  /** No problem found, warnings included (see Model::check_code_is_warning()):
   * a model whose report holds warnings only is valid but not ok(); see valid(). */
  bool ok() const noexcept { return size() == 0; }
  /** The number of problems that are errors (warnings not counted).
   * @since 0.3.0 */
  std::size_t errors() const noexcept {
    std::size_t n = 0;
    for (std::size_t i = 0; i < size(); i++)
      if (onnxslim_check_code_is_warning(onnxslim_check_report_code(r_.get(), i)) != 1) n++;
    return n;
  }
  /** A valid model: every problem found is a warning (none is an error), as
   * onnxslim_check() defines a valid model. @since 0.3.0 */
  bool valid() const noexcept { return errors() == 0; }
  std::size_t size() const noexcept { return onnxslim_check_report_count(r_.get()); }
  bool empty() const noexcept { return size() == 0; }
  range<const onnxslim_check_report, CheckProblem> problems() const {
    return {r_.get(), size(), &problem_at};
  }
  auto begin() const { return problems().begin(); }
  auto end() const { return problems().end(); }
  CheckProblem operator[](std::size_t i) const { return problems()[i]; }
  /** What the check could not do ("" when nothing; onnxslim_check_report_note()). */
  std::string_view note() const { return detail::str(onnxslim_check_report_note(r_.get())); }

 private:
  static CheckProblem problem_at(const onnxslim_check_report *r, std::size_t i) {
    CheckProblem p{0, {}, {}};
    p.code = detail::check(onnxslim_check_report_code(r, i));
    p.location = detail::str(onnxslim_check_report_location(r, i));
    p.message = detail::str(onnxslim_check_report_message(r, i));
    return p;
  }
  std::unique_ptr<onnxslim_check_report, detail::free_check_report> r_;
};

/** One difference found by Model::diff(). Strings live as long as the
 * report; `attribute`, `a`, `b`, `digest_a`, `digest_b` are nullopt where
 * the entry has none; `numbers` only for tensors compared by value. */
struct DiffEntry {
  int kind;   /**< an onnxslim_diff_kind (ONNXSLIM_DIFF_KIND_*) */
  int aspect; /**< an onnxslim_diff_aspect (ONNXSLIM_DIFF_*) */
  std::string_view graph, name, label, text;
  std::optional<std::string_view> attribute, a, b, digest_a, digest_b;
  int64_t index_a, index_b; /**< node positions, -1 where none */
  std::optional<onnxslim_diff_numbers> numbers;
};

/** What Model::diff() found; owns the C report (move-only). */
class DiffReport {
 public:
  explicit DiffReport(onnxslim_diff_report *owned) noexcept : r_(owned) {}
  onnxslim_diff_report *get() const noexcept { return r_.get(); }
  /** The models are equal (no entry). */
  bool equal() const noexcept { return size() == 0; }
  std::size_t size() const noexcept { return onnxslim_diff_report_count(r_.get()); }
  bool empty() const noexcept { return size() == 0; }
  range<const onnxslim_diff_report, DiffEntry> entries() const {
    return {r_.get(), size(), &entry_at};
  }
  auto begin() const { return entries().begin(); }
  auto end() const { return entries().end(); }
  DiffEntry operator[](std::size_t i) const { return entries()[i]; }
  /** The fingerprint of model A (ONNXSLIM_DIFF_A) or B. */
  std::string_view fingerprint(int which) const {
    return detail::str(onnxslim_diff_report_fingerprint(r_.get(), which));
  }

 private:
  static std::optional<std::string_view> maybe(const char *s) {
    if (!s) return std::nullopt;
    return std::string_view(s);
  }
  static DiffEntry entry_at(const onnxslim_diff_report *r, std::size_t i) {
    DiffEntry e{0, 0, {}, {}, {}, {}, {}, {}, {}, {}, {}, -1, -1, {}};
    onnxslim_diff_numbers n = ONNXSLIM_DIFF_NUMBERS_INIT;
    e.kind = detail::check(onnxslim_diff_report_kind(r, i));
    e.aspect = detail::check(onnxslim_diff_report_aspect(r, i));
    e.graph = detail::str(onnxslim_diff_report_graph(r, i));
    e.name = detail::str(onnxslim_diff_report_name(r, i));
    e.label = detail::str(onnxslim_diff_report_label(r, i));
    e.text = detail::str(onnxslim_diff_report_text(r, i));
    e.attribute = maybe(onnxslim_diff_report_attribute(r, i));
    e.a = maybe(onnxslim_diff_report_value(r, i, ONNXSLIM_DIFF_A));
    e.b = maybe(onnxslim_diff_report_value(r, i, ONNXSLIM_DIFF_B));
    e.digest_a = maybe(onnxslim_diff_report_digest(r, i, ONNXSLIM_DIFF_A));
    e.digest_b = maybe(onnxslim_diff_report_digest(r, i, ONNXSLIM_DIFF_B));
    e.index_a = onnxslim_diff_report_node_index(r, i, ONNXSLIM_DIFF_A);
    e.index_b = onnxslim_diff_report_node_index(r, i, ONNXSLIM_DIFF_B);
    if (onnxslim_diff_report_numbers(r, i, &n) == ONNXSLIM_OK) e.numbers = n;
    return e;
  }
  std::unique_ptr<onnxslim_diff_report, detail::free_diff_report> r_;
};

/** One dimension of an inferred shape: kind ONNXSLIM_DIM_VALUE (value),
 * ONNXSLIM_DIM_PARAM (param, valid as long as the report) or
 * ONNXSLIM_DIM_UNKNOWN. @since 0.3.0 */
struct InferredDim {
  int kind;
  std::int64_t value;
  std::string_view param;
};

/** One value of Model::infer_shapes(); name and symbols live as long as
 * the report. @since 0.3.0 */
struct InferredValue {
  std::string_view name;
  int status;         /**< ONNXSLIM_INFER_NEW, _REFINED, _SAME or _CONFLICT */
  std::int32_t dtype; /**< ONNXSLIM_DTYPE_*, 0 when unknown */
  bool has_shape;     /**< false: the rank is unknown (dims empty) */
  std::vector<InferredDim> dims;
};

/** What Model::infer_shapes() found; owns the C report (move-only).
 * @since 0.3.0 */
class InferReport {
 public:
  explicit InferReport(onnxslim_infer_report *owned) noexcept : r_(owned) {}
  onnxslim_infer_report *get() const noexcept { return r_.get(); }
  std::size_t size() const noexcept { return onnxslim_infer_report_count(r_.get()); }
  std::size_t conflicts() const noexcept { return onnxslim_infer_report_conflicts(r_.get()); }
  /** Entry i (i < size()). */
  InferredValue at(std::size_t i) const {
    InferredValue v{detail::str(onnxslim_infer_report_name(r_.get(), i)),
                    onnxslim_infer_report_status(r_.get(), i),
                    onnxslim_infer_report_dtype(r_.get(), i),
                    false,
                    {}};
    std::int64_t rank = onnxslim_infer_report_rank(r_.get(), i);
    v.has_shape = rank >= 0;
    for (std::int64_t k = 0; k < rank; k++) {
      std::int64_t value = 0;
      const char *param = nullptr;
      int kind =
          onnxslim_infer_report_dim(r_.get(), i, static_cast<std::size_t>(k), &value, &param);
      v.dims.push_back(InferredDim{kind, value, detail::str(param)});
    }
    return v;
  }
  std::vector<InferredValue> values() const {
    std::vector<InferredValue> v;
    for (std::size_t i = 0; i < size(); i++) v.push_back(at(i));
    return v;
  }

 private:
  std::unique_ptr<onnxslim_infer_report, detail::free_infer_report> r_;
};

/** One pass run of Model::simplify() (onnxslim_simplify_report_step()).
 * @since 0.3.0 */
struct SimplifyStep {
  unsigned int pass;      /**< ONNXSLIM_SIMPLIFY_NOOP, _CSE or _DEAD */
  unsigned int iteration; /**< its round, from 1 */
  std::uint64_t nodes_before, nodes_after, initializers_before, initializers_after;
};

/** One change of Model::simplify() (onnxslim_simplify_report_change());
 * strings live as long as the report. @since 0.3.0 */
struct SimplifyChange {
  unsigned int pass;
  int kind; /**< an onnxslim_simplify_change */
  std::string_view name, into, graph;
};

/** What Model::simplify() did; owns the C report (move-only). @since 0.3.0 */
class SimplifyReport {
 public:
  explicit SimplifyReport(onnxslim_simplify_report *owned) noexcept : r_(owned) {}
  onnxslim_simplify_report *get() const noexcept { return r_.get(); }
  unsigned int iterations() const noexcept { return onnxslim_simplify_report_iterations(r_.get()); }
  std::vector<SimplifyStep> steps() const {
    std::vector<SimplifyStep> v;
    for (std::size_t i = 0; i < onnxslim_simplify_report_step_count(r_.get()); i++) {
      SimplifyStep s{0, 0, 0, 0, 0, 0};
      detail::check(onnxslim_simplify_report_step(r_.get(), i, &s.pass, &s.iteration,
                                                  &s.nodes_before, &s.nodes_after,
                                                  &s.initializers_before, &s.initializers_after));
      v.push_back(s);
    }
    return v;
  }
  std::vector<SimplifyChange> changes() const {
    std::vector<SimplifyChange> v;
    for (std::size_t i = 0; i < onnxslim_simplify_report_change_count(r_.get()); i++) {
      SimplifyChange c{0, 0, {}, {}, {}};
      const char *name = nullptr, *into = nullptr, *graph = nullptr;
      detail::check(
          onnxslim_simplify_report_change(r_.get(), i, &c.pass, &c.kind, &name, &into, &graph));
      c.name = detail::str(name);
      c.into = detail::str(into);
      c.graph = detail::str(graph);
      v.push_back(c);
    }
    return v;
  }
  /** Nodes of every graph before the first pass run and after the last. */
  std::uint64_t nodes_before() const { return edge(true).nodes_before; }
  std::uint64_t nodes_after() const { return edge(false).nodes_after; }
  std::uint64_t initializers_before() const { return edge(true).initializers_before; }
  std::uint64_t initializers_after() const { return edge(false).initializers_after; }

 private:
  SimplifyStep edge(bool first) const {
    SimplifyStep s{0, 0, 0, 0, 0, 0};
    std::size_t n = onnxslim_simplify_report_step_count(r_.get());
    if (n)
      detail::check(onnxslim_simplify_report_step(r_.get(), first ? 0 : n - 1, &s.pass,
                                                  &s.iteration, &s.nodes_before, &s.nodes_after,
                                                  &s.initializers_before, &s.initializers_after));
    return s;
  }
  std::unique_ptr<onnxslim_simplify_report, detail::free_simplify_report> r_;
};

/** One converted tensor. */
struct ConvertEntry {
  std::string_view name; /**< lives as long as the report */
  std::int32_t from;     /**< ONNXSLIM_DTYPE_* before */
  std::int32_t to;       /**< and after */
  std::uint64_t bytes_before;
  std::uint64_t bytes_after;
  onnxslim_convert_stats stats; /**< count, to_inf, ..., max_abs_error, max_rel_error */
  bool quantized;               /**< to INT8 or INT4: `quant` is filled (@since 0.2.0) */
  onnxslim_quant_stats quant;   /**< scale range, errors (onnxslim_quant_report_stats) */
};

/** A tensor the conversion kept in its type: its values do not fit the
 * target type (ONNXSLIM_CONVERT_OVERFLOW_KEEP; @since 0.2.0). */
struct KeptEntry {
  std::string_view name;        /**< lives as long as the report */
  std::int32_t dtype;           /**< ONNXSLIM_DTYPE_*, unchanged */
  onnxslim_convert_stats stats; /**< what converting it would have done */
};

/** What the converted model will do at run time that the caller should
 * know (onnxslim_convert_report_note_*(); @since 0.2.0). */
struct ConvertNote {
  int code;                 /**< onnxslim_convert_note_code */
  std::string_view kind;    /**< its stable name (onnxslim_convert_note_code_name()) */
  std::string_view name;    /**< the tensor's value name; lives as long as the report */
  std::string_view op;      /**< op type of the node that reads it */
  std::string_view node;    /**< that node's name ("" when unnamed) */
  bool has_input;           /**< false: the node reads it inside a subgraph only */
  std::size_t input;        /**< the node's input that reads it (when has_input) */
  std::uint64_t bytes;      /**< the tensor's stored bytes */
  std::string_view message; /**< one sentence for people */
};

/** What a conversion did, one entry per converted tensor; owns the C report. */
class ConvertReport {
 public:
  explicit ConvertReport(onnxslim_convert_report *owned) noexcept : r_(owned) {}
  onnxslim_convert_report *get() const noexcept { return r_.get(); }
  std::size_t size() const noexcept { return onnxslim_convert_report_count(r_.get()); }
  bool empty() const noexcept { return size() == 0; }
  range<const onnxslim_convert_report, ConvertEntry> entries() const {
    return {r_.get(), size(), &entry_at};
  }
  auto begin() const { return entries().begin(); }
  auto end() const { return entries().end(); }
  ConvertEntry operator[](std::size_t i) const { return entries()[i]; }
  /** The tensors kept in their type (onnxslim_convert_report_kept_count()). */
  range<const onnxslim_convert_report, KeptEntry> kept() const {
    return {r_.get(), onnxslim_convert_report_kept_count(r_.get()), &kept_at};
  }
  /** What the converted model will do at run time
   * (onnxslim_convert_report_note_count(); @since 0.2.0). */
  range<const onnxslim_convert_report, ConvertNote> notes() const {
    return {r_.get(), onnxslim_convert_report_note_count(r_.get()), &note_at};
  }

 private:
  static ConvertNote note_at(const onnxslim_convert_report *r, std::size_t i) {
    ConvertNote n{0, {}, {}, {}, {}, false, 0, 0, {}};
    n.code = detail::check(onnxslim_convert_report_note_code(r, i));
    n.kind = detail::str(onnxslim_convert_note_code_name(n.code));
    n.name = detail::str(onnxslim_convert_report_note_name(r, i));
    n.op = detail::str(onnxslim_convert_report_note_op(r, i));
    n.node = detail::str(onnxslim_convert_report_note_node(r, i));
    n.has_input = onnxslim_convert_report_note_input(r, i, &n.input) == ONNXSLIM_OK;
    if (!n.has_input) onnxslim_error_clear();
    detail::check(onnxslim_convert_report_note_bytes(r, i, &n.bytes));
    n.message = detail::str(onnxslim_convert_report_note_message(r, i));
    return n;
  }
  static KeptEntry kept_at(const onnxslim_convert_report *r, std::size_t i) {
    KeptEntry e{{}, 0, {}};
    e.name = detail::str(onnxslim_convert_report_kept_name(r, i));
    e.dtype = onnxslim_convert_report_kept_from(r, i);
    detail::check(onnxslim_convert_stats_init(&e.stats, ONNXSLIM_CONVERT_STATS_VERSION));
    detail::check(onnxslim_convert_report_kept_add_stats(r, i, &e.stats));
    return e;
  }
  static ConvertEntry entry_at(const onnxslim_convert_report *r, std::size_t i) {
    ConvertEntry e{{}, 0, 0, 0, 0, {}, false, {}};
    e.name = detail::str(onnxslim_convert_report_name(r, i));
    e.from = onnxslim_convert_report_from(r, i);
    e.to = onnxslim_convert_report_to(r, i);
    detail::check(onnxslim_convert_report_bytes_before(r, i, &e.bytes_before));
    detail::check(onnxslim_convert_report_bytes_after(r, i, &e.bytes_after));
    detail::check(onnxslim_convert_stats_init(&e.stats, ONNXSLIM_CONVERT_STATS_VERSION));
    detail::check(onnxslim_convert_report_add_stats(r, i, &e.stats));
    e.quant = ONNXSLIM_QUANT_STATS_INIT;
    e.quantized = onnxslim_quant_report_stats(r, i, &e.quant) == ONNXSLIM_OK;
    if (!e.quantized) onnxslim_error_clear();
    return e;
  }
  std::unique_ptr<onnxslim_convert_report, detail::free_convert_report> r_;
};

/** Where a save put one tensor. */
struct SaveEntry {
  std::string_view name;
  int placement;             /**< an onnxslim_placement (ONNXSLIM_PLACEMENT_*) */
  std::string_view location; /**< the data file, "" when kept inline */
  std::uint64_t offset;
  std::uint64_t length;
};

/** What a save did with each tensor; owns the C report. */
class SaveReport {
 public:
  explicit SaveReport(onnxslim_save_report *owned) noexcept : r_(owned) {}
  onnxslim_save_report *get() const noexcept { return r_.get(); }
  std::size_t size() const noexcept { return onnxslim_save_report_count(r_.get()); }
  bool empty() const noexcept { return size() == 0; }
  range<const onnxslim_save_report, SaveEntry> entries() const {
    return {r_.get(), size(), &entry_at};
  }
  auto begin() const { return entries().begin(); }
  auto end() const { return entries().end(); }
  SaveEntry operator[](std::size_t i) const { return entries()[i]; }
  /** Bytes the kernel copied (copy_file_range). */
  std::uint64_t kernel_copied() const noexcept {
    return onnxslim_save_report_kernel_copied(r_.get());
  }

 private:
  static SaveEntry entry_at(const onnxslim_save_report *r, std::size_t i) {
    SaveEntry e{{}, 0, {}, 0, 0};
    e.name = detail::str(onnxslim_save_report_name(r, i));
    e.placement = detail::check(onnxslim_save_report_placement(r, i));
    const char *loc = onnxslim_save_report_location(r, i);
    if (loc) e.location = loc;
    detail::check(onnxslim_save_report_offset(r, i, &e.offset));
    detail::check(onnxslim_save_report_length(r, i, &e.length));
    return e;
  }
  std::unique_ptr<onnxslim_save_report, detail::free_save_report> r_;
};

/* ---- options ------------------------------------------------------------------ */

/** onnxslim_load_options; the defaults are the library's. */
struct LoadOptions {
  unsigned int max_depth = 0;   /**< 0: ONNXSLIM_DEFAULT_MAX_DEPTH */
  std::string base_dir;         /**< "": the model file's directory */
  std::uint64_t max_memory = 0; /**< 0: ONNXSLIM_DEFAULT_MAX_MEMORY */

  onnxslim_load_options to_c() const {
    onnxslim_load_options o;
    detail::check(onnxslim_load_options_init(&o, ONNXSLIM_LOAD_OPTIONS_VERSION));
    o.max_depth = max_depth;
    o.base_dir = base_dir.empty() ? nullptr : base_dir.c_str();
    o.max_memory = max_memory;
    return o;
  }
};

/** onnxslim_convert_options (onnxslim/convert.h); the defaults are the library's:
 * every floating-point tensor to BF16, cast after gather, nearest even. */
struct ConvertOptions {
  std::int32_t to = ONNXSLIM_DTYPE_BFLOAT16;
  int policy = ONNXSLIM_CONVERT_POLICY_CAST_AFTER_GATHER;
  unsigned int flags = 0;           /**< ONNXSLIM_CONVERT_TRUNCATE, _SATURATE, ... */
  std::vector<std::string> select;  /**< names, globs, "op:TYPE[:INDEX]"; empty: all */
  std::vector<std::string> exclude; /**< same syntax */
  std::uint64_t min_size = 0;
  unsigned int report_flags = 0; /**< ONNXSLIM_CONVERT_REPORT_NO_STATS */
  /** ONNXSLIM_CONVERT_OVERFLOW_KEEP (a tensor whose values do not fit `to` keeps its
   * type, listed by ConvertReport::kept()) or ONNXSLIM_CONVERT_OVERFLOW_CONVERT
   * (@since 0.2.0) */
  int overflow = ONNXSLIM_CONVERT_OVERFLOW_KEEP;
};

/** onnxslim_quant_options (onnxslim/quant.h, @since 0.2.0; docs/quantization.md);
 * the defaults are the library's: tables and weights to INT8, one scale per row. */
struct QuantOptions {
  std::int32_t to = ONNXSLIM_DTYPE_INT8; /**< or ONNXSLIM_DTYPE_INT4 */
  unsigned int targets = ONNXSLIM_QUANT_TABLES | ONNXSLIM_QUANT_WEIGHTS;
  unsigned int flags =
      0; /**< ONNXSLIM_QUANT_ALLOW_UNPACKED, _ASYMMETRIC, _FLOAT_ZERO_POINTS (0.3.0) */
  std::vector<std::string> select;  /**< names, globs, "op:TYPE[:INDEX]"; empty: all */
  std::vector<std::string> exclude; /**< same syntax */
  std::uint64_t min_size = 0;
  int format = ONNXSLIM_QUANT_FORMAT_STANDARD; /**< or ONNXSLIM_QUANT_FORMAT_ORT, _NIBBLES */
  std::uint64_t block_size = 0;                /**< values per scale; 0: one per row */
  std::int32_t scale_type = 0;                 /**< FLOAT or FLOAT16; 0: the table's type */
  double clip_percentile = 0;    /**< 0: no clipping; else 0 < p < 100 (see onnxslim/quant.h) */
  unsigned int report_flags = 0; /**< ONNXSLIM_QUANT_REPORT_NO_STATS */
  /** an onnxslim_quant_scale_method (@since 0.3.0); 0: the default (float zero points for INT4
   * MatMul and Gemm weights in the onnxruntime format, else absmax; onnxslim/quant.h) */
  int scale_method = ONNXSLIM_QUANT_SCALES_DEFAULT;
};

/** onnxslim_save_options (onnxslim/save.h); the defaults are the library's. */
struct SaveOptions {
  int layout = ONNXSLIM_LAYOUT_AS_LOADED; /**< an onnxslim_layout */
  unsigned int flags = 0;                 /**< ONNXSLIM_SAVE_* */
  std::uint64_t size_threshold = ONNXSLIM_SAVE_DEFAULT_THRESHOLD;
  std::uint64_t align = ONNXSLIM_SAVE_DEFAULT_ALIGN;
  std::string location; /**< ONE_FILE: the data file; "": <model>.data */

  onnxslim_save_options to_c() const {
    onnxslim_save_options o;
    detail::check(onnxslim_save_options_init(&o, ONNXSLIM_SAVE_OPTIONS_VERSION));
    o.layout = layout;
    o.flags = flags;
    o.size_threshold = size_threshold;
    o.align = align;
    o.location = location.empty() ? nullptr : location.c_str();
    return o;
  }
};

/* ---- the model (owned) ---------------------------------------------------------- */

/** A loaded model; owns the onnxslim_model (move-only, like std::unique_ptr).
 * A default-constructed Model is empty: its calls throw ONNXSLIM_EINVAL. */
class Model {
 public:
  Model() noexcept = default;
  /** Takes ownership of a model from the C API. */
  explicit Model(onnxslim_model *owned) noexcept : m_(owned) {}

  /** onnxslim_model_open(): maps the file; the file must stay unchanged. */
  static Model open(cstr path, const LoadOptions &opts = {}) {
    onnxslim_load_options o = opts.to_c();
    onnxslim_model *m = nullptr;
    detail::check(onnxslim_model_open(&m, path.c_str(), &o));
    return Model(m);
  }
  /** onnxslim_model_from_buffer(); with ONNXSLIM_BORROW the bytes must stay
   * unchanged while the model lives. */
  static Model from_buffer(bytes_view data, unsigned int flags = ONNXSLIM_COPY,
                           const LoadOptions &opts = {}) {
    onnxslim_load_options o = opts.to_c();
    onnxslim_model *m = nullptr;
    detail::check(onnxslim_model_from_buffer(&m, data.data(), data.size(), flags, &o));
    return Model(m);
  }

  onnxslim_model *get() const noexcept { return m_.get(); }
  /** Gives up ownership: the caller frees it with onnxslim_model_free(). */
  onnxslim_model *release() noexcept { return m_.release(); }
  explicit operator bool() const noexcept { return m_ != nullptr; }

  Graph graph() const { return Graph(detail::need(onnxslim_model_graph(get()))); }
  std::int64_t ir_version() const { return onnxslim_model_ir_version(get()); }
  std::string_view producer_name() const {
    return detail::str(onnxslim_model_producer_name(get()));
  }
  std::string_view producer_version() const {
    return detail::str(onnxslim_model_producer_version(get()));
  }
  std::string_view domain() const { return detail::str(onnxslim_model_domain(get())); }
  std::int64_t model_version() const { return onnxslim_model_version(get()); }
  std::string_view doc_string() const { return detail::str(onnxslim_model_doc_string(get())); }
  range<const onnxslim_model, Opset> opsets() const {
    return {get(), onnxslim_model_opset_count(get()), &opset_at};
  }
  /** metadata_props as (key, value) pairs. */
  range<const onnxslim_model, std::pair<std::string_view, std::string_view>> metadata() const {
    return {get(), onnxslim_model_metadata_count(get()), &metadata_at};
  }
  range<const onnxslim_model, Function> functions() const {
    return {get(), onnxslim_model_function_count(get()), &function_at};
  }
  /** The files the model reads: the model file, then its external data files. */
  range<const onnxslim_model, std::string_view> files() const {
    return {get(), onnxslim_model_file_count(get()), &file_at};
  }

  void set_producer(cstr name, cstr version) {
    detail::check(onnxslim_model_set_producer(get(), name.c_str(), version.c_str()));
  }
  void set_doc_string(cstr doc) {
    detail::check(onnxslim_model_set_doc_string(get(), doc.c_str()));
  }
  void set_ir_version(std::int64_t v) { detail::check(onnxslim_model_set_ir_version(get(), v)); }
  /** domain "" (or nullptr): the default ONNX domain. */
  void set_opset(cstr domain, std::int64_t version) {
    detail::check(onnxslim_model_set_opset(get(), domain.c_str(), version));
  }
  void remove_opset(cstr domain) {
    detail::check(onnxslim_model_remove_opset(get(), domain.c_str()));
  }
  void set_metadata(cstr key, cstr value) {
    detail::check(onnxslim_model_set_metadata(get(), key.c_str(), value.c_str()));
  }
  void remove_metadata(cstr key) {
    detail::check(onnxslim_model_remove_metadata(get(), key.c_str()));
  }
  /** A name used nowhere in the model: `base`, else base_N. */
  std::string_view unique_name(cstr base) {
    const char *s = nullptr;
    detail::check(onnxslim_model_unique_name(get(), base.c_str(), &s));
    return detail::str(s);
  }

  /** onnxslim_check(): the problems found (none: report.ok()). */
  CheckReport check() const {
    onnxslim_check_report *r = nullptr;
    detail::check(onnxslim_check(&r, get(), 0));
    return CheckReport(r);
  }
  /** onnxslim_check_with(): problems of the kinds in `skip` (ONNXSLIM_CHECK_*
   * codes, see check_code()) are not looked for. */
  CheckReport check(const std::vector<int> &skip) const {
    onnxslim_check_options o = ONNXSLIM_CHECK_OPTIONS_INIT;
    o.skip = skip.data();
    o.n_skip = skip.size();
    onnxslim_check_report *r = nullptr;
    detail::check(onnxslim_check_with(&r, get(), &o));
    return CheckReport(r);
  }
  /** The ONNXSLIM_CHECK_* code of a check's name ("type_constraint"); throws
   * (ONNXSLIM_ENOTFOUND) for an unknown name. */
  static int check_code(cstr name) {
    return detail::check(onnxslim_check_code_from_name(name.c_str()));
  }
  /** onnxslim_check_code_is_warning(): whether problems of that kind leave
   * the model valid (ONNXSLIM_CHECK_EXTERNAL_LOAD_INPUT); throws
   * (ONNXSLIM_EINVAL) for a value that is no code. */
  static bool check_code_is_warning(int code) {
    return detail::check(onnxslim_check_code_is_warning(code)) == 1;
  }
  /** onnxslim_convert_model(). */
  ConvertReport convert(const ConvertOptions &opts = {}) {
    onnxslim_convert_options o;
    detail::check(onnxslim_convert_options_init(&o, ONNXSLIM_CONVERT_OPTIONS_VERSION));
    std::vector<const char *> sel, exc;
    for (const std::string &s : opts.select) sel.push_back(s.c_str());
    for (const std::string &s : opts.exclude) exc.push_back(s.c_str());
    o.to = opts.to;
    o.policy = opts.policy;
    o.flags = opts.flags;
    o.select = sel.empty() ? nullptr : sel.data();
    o.n_select = sel.size();
    o.min_size = opts.min_size;
    o.exclude = exc.empty() ? nullptr : exc.data();
    o.n_exclude = exc.size();
    o.report_flags = opts.report_flags;
    o.overflow = opts.overflow;
    onnxslim_convert_report *r = nullptr;
    detail::check(onnxslim_convert_model(&r, get(), &o));
    return ConvertReport(r);
  }
  /** onnxslim_convert_gather_tables_with() (@since 0.2.0): the Gather tables with
   * opts (whose select must be empty). */
  ConvertReport convert_gather_tables(const ConvertOptions &opts) {
    onnxslim_convert_options o;
    detail::check(onnxslim_convert_options_init(&o, ONNXSLIM_CONVERT_OPTIONS_VERSION));
    std::vector<const char *> sel, exc;
    for (const std::string &s : opts.select) sel.push_back(s.c_str());
    for (const std::string &s : opts.exclude) exc.push_back(s.c_str());
    o.to = opts.to;
    o.policy = opts.policy;
    o.flags = opts.flags;
    o.select = sel.empty() ? nullptr : sel.data();
    o.n_select = sel.size();
    o.min_size = opts.min_size;
    o.exclude = exc.empty() ? nullptr : exc.data();
    o.n_exclude = exc.size();
    o.report_flags = opts.report_flags;
    o.overflow = opts.overflow;
    onnxslim_convert_report *r = nullptr;
    detail::check(onnxslim_convert_gather_tables_with(&r, get(), &o));
    return ConvertReport(r);
  }
  /** onnxslim_quantize() (@since 0.2.0): its report is a conversion report,
   * each entry `quantized` with its `quant` statistics. */
  ConvertReport quantize(const QuantOptions &opts = {}) {
    onnxslim_quant_options o;
    detail::check(onnxslim_quant_options_init(&o, ONNXSLIM_QUANT_OPTIONS_VERSION));
    std::vector<const char *> sel, exc;
    for (const std::string &s : opts.select) sel.push_back(s.c_str());
    for (const std::string &s : opts.exclude) exc.push_back(s.c_str());
    o.to = opts.to;
    o.targets = opts.targets;
    o.flags = opts.flags;
    o.select = sel.empty() ? nullptr : sel.data();
    o.n_select = sel.size();
    o.exclude = exc.empty() ? nullptr : exc.data();
    o.n_exclude = exc.size();
    o.min_size = opts.min_size;
    o.format = opts.format;
    o.block_size = opts.block_size;
    o.scale_type = opts.scale_type;
    o.clip_percentile = opts.clip_percentile;
    o.report_flags = opts.report_flags;
    o.scale_method = opts.scale_method;
    onnxslim_quant_report *r = nullptr;
    detail::check(onnxslim_quantize(&r, get(), &o));
    return ConvertReport(r);
  }
  /** The published recipe: each Gather table (input 0 of a Gather) of at least
   * min_size bytes to `to`, a Cast after each Gather (onnxslim_convert_gather_tables()). */
  ConvertReport convert_gather_tables(std::int32_t to = ONNXSLIM_DTYPE_BFLOAT16,
                                      std::uint64_t min_size = 0, unsigned int flags = 0) {
    onnxslim_convert_report *r = nullptr;
    detail::check(onnxslim_convert_gather_tables(&r, get(), to, min_size, flags));
    return ConvertReport(r);
  }
  /** onnxslim_save(): atomic; the model in memory is not changed. */
  SaveReport save(cstr path, const SaveOptions &opts = {}) const {
    onnxslim_save_options o = opts.to_c();
    onnxslim_save_report *r = nullptr;
    detail::check(onnxslim_save(&r, get(), path.c_str(), &o));
    return SaveReport(r);
  }
  /** The model serialized as loaded (onnxslim_save_buffer()). */
  std::vector<std::byte> save_buffer() const {
    std::uint64_t size = 0;
    detail::check(onnxslim_save_size(get(), &size));
    if (size > SIZE_MAX) detail::raise(ONNXSLIM_ELIMIT, "libonnxslim: model too large for memory");
    std::vector<std::byte> buf(static_cast<std::size_t>(size));
    std::size_t written = 0;
    detail::check(onnxslim_save_buffer(get(), buf.data(), buf.size(), &written));
    buf.resize(written);
    return buf;
  }
  /** onnxslim_save_buffer_external(): the model file save(path, opts) would
   * write (opts.layout ONE_FILE or PER_TENSOR) in memory, the tensors left
   * out as external data, and no file written; `report` (may be null)
   * receives where each tensor's bytes belong (location, offset, length). */
  std::vector<std::byte> save_buffer_external(const SaveOptions &opts,
                                              SaveReport *report = nullptr) const {
    onnxslim_save_options o = opts.to_c();
    std::size_t size = 0;
    int rc = onnxslim_save_buffer_external(nullptr, get(), nullptr, 0, &size, &o);
    if (rc != ONNXSLIM_EBUFSIZE) detail::check(rc);
    std::vector<std::byte> buf(size);
    onnxslim_save_report *r = nullptr;
    detail::check(onnxslim_save_buffer_external(report ? &r : nullptr, get(), buf.data(),
                                                buf.size(), &size, &o));
    buf.resize(size);
    if (report) *report = SaveReport(r);
    return buf;
  }
  /** onnxslim_diff(): what differs between this model (A) and `other` (B);
   * `storage`: also where tensor bytes are stored. */
  /** onnxslim_simplify(): exact simplification in place with `passes`
   * (ONNXSLIM_SIMPLIFY_* bits) in at most `max_iterations` rounds (0: up
   * to ONNXSLIM_SIMPLIFY_MAX_ITERATIONS), constant folding reading and
   * creating tensors of at most `fold_max_bytes` (0: 1 MiB); throws on
   * failure (the passes run before it stay done). Handles of removed items
   * become invalid.
   * @since 0.3.0 */
  SimplifyReport simplify(unsigned int passes = ONNXSLIM_SIMPLIFY_ALL,
                          unsigned int max_iterations = 0, std::uint64_t fold_max_bytes = 0) {
    onnxslim_simplify_options o = ONNXSLIM_SIMPLIFY_OPTIONS_INIT;
    o.passes = passes;
    o.max_iterations = max_iterations;
    o.fold_max_bytes = fold_max_bytes;
    onnxslim_simplify_report *r = nullptr;
    detail::check(onnxslim_simplify(&r, get(), &o));
    return SimplifyReport(r);
  }

  /** onnxslim_infer_shapes(): element types and shapes of the main graph's
   * values; `flags` are ONNXSLIM_INFER_* bits (0: write value_info,
   * lenient, data propagation on); throws on failure (nothing written).
   * @since 0.3.0 */
  InferReport infer_shapes(unsigned int flags = 0) {
    onnxslim_infer_options o = ONNXSLIM_INFER_OPTIONS_INIT;
    o.flags = flags;
    onnxslim_infer_report *r = nullptr;
    detail::check(onnxslim_infer_shapes(&r, get(), &o));
    return InferReport(r);
  }

  DiffReport diff(const Model &other, bool storage = false) const {
    onnxslim_diff_options o = ONNXSLIM_DIFF_OPTIONS_INIT;
    if (storage) o.flags |= ONNXSLIM_DIFF_COMPARE_STORAGE;
    onnxslim_diff_report *r = nullptr;
    detail::check(onnxslim_diff(&r, get(), other.get(), &o));
    return DiffReport(r);
  }

  /** onnxslim_fingerprint(): 32 hex digits, equal for every storage form. */
  std::string fingerprint() const {
    char out[ONNXSLIM_FINGERPRINT_SIZE];
    detail::check(onnxslim_fingerprint(out, sizeof out, get()));
    return std::string(out);
  }

 private:
  static Opset opset_at(const onnxslim_model *m, std::size_t i) {
    const char *d = nullptr;
    Opset o{{}, 0};
    detail::check(onnxslim_model_opset(m, i, &d, &o.version));
    o.domain = detail::str(d);
    return o;
  }
  static std::pair<std::string_view, std::string_view> metadata_at(const onnxslim_model *m,
                                                                   std::size_t i) {
    const char *k = nullptr, *v = nullptr;
    detail::check(onnxslim_model_metadata(m, i, &k, &v));
    return {detail::str(k), detail::str(v)};
  }
  static Function function_at(const onnxslim_model *m, std::size_t i) {
    return Function(detail::need(onnxslim_model_function(m, i)));
  }
  static std::string_view file_at(const onnxslim_model *m, std::size_t i) {
    return detail::str(onnxslim_model_file(m, i));
  }
  std::unique_ptr<onnxslim_model, detail::free_model> m_;
};

/** Model::open() */
inline Model load(cstr path, const LoadOptions &opts = {}) { return Model::open(path, opts); }
/** Model::from_buffer() */
inline Model load(bytes_view data, unsigned int flags = ONNXSLIM_COPY,
                  const LoadOptions &opts = {}) {
  return Model::from_buffer(data, flags, opts);
}

/** The running library's version, "MAJOR.MINOR.PATCH". */
inline std::string_view version() { return onnxslim_version_string(); }
/** "FLOAT", "BFLOAT16", ... ("UNKNOWN" for values the library does not know). */
inline std::string_view dtype_name(std::int32_t dtype) { return onnxslim_dtype_name(dtype); }

}  // namespace onnxslim

#endif /* ONNXSLIM_HPP */
