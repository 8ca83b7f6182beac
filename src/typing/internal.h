/* internal.h - shared between the files of typing/: the rules floor (rules.c) and what the
 * fixpoint (typing.c), calls.c and arrays.c give each other. */
#ifndef KN_TYPING_INTERNAL_H
#define KN_TYPING_INTERNAL_H

#include "typing/typing.h"

/* exceptions.c: RAISE with run-time arguments, EXC_MATCH, RERAISE */
int kn_typing_exc(KnCompilation *c, KnInstr *in);

/* iter_builtins.c: isinstance(v, C) for a class C that is registry entry `id` (list, dict,
 * set, np.ndarray, ...): 1 or 0 for a value of type t, -1 when C is not a class it knows. A
 * new kind answers by one case there. */
int kn_typing_isinstance_of(const KnType *t, int id);
int kn_typing_isinstance_class(const KnType *t, const KnType *k);
/* rules.c: the floor */
int kn_typing_err(KnCompilation *c, KnSpan span, const char *fmt, ...)
    __attribute__((format(printf, 3, 4))); /* a typing error at span; returns -1 */
KnCallImpl *kn_typing_impl_of(KnCompilation *c, KnInstr *in); /* made when missing */
KnCallImpl *kn_typing_impl_kind(KnCompilation *c, KnInstr *in, KnCallKind kind); /* and its kind */
int kn_typing_intlike(const KnType *t); /* bool or an int */
/* the registry owner of t's methods and attributes: "number" for numbers, "flags" for a.flags,
 * else t's kind name ("array", "range", "str", "list"); NULL for compile-time values */
const char *kn_typing_owner(const KnType *t);
const char *kn_typing_arg_list(KnCompilation *c, KnType **a, int n); /* "int64, float64" */
KnType *kn_typing_dtype_of(KnInstr *arg); /* the dtype an argument names, or NULL */
/* at most npos_max positional arguments, and keywords only from `allowed` (NULL-ended) */
int kn_typing_check_keywords(KnCompilation *c, KnInstr *in, const char *const *allowed,
                             int npos_max);
/* the same, naming the callee `name` in the messages (a method: "array.sort") */
int kn_typing_check_keywords_of(KnCompilation *c, KnInstr *in, const char *name,
                                const char *const *allowed, int npos_max);

int kn_typing_call(KnCompilation *c, KnInstr *in, int *changed);
/* record.c: fields of records and arrays of records (t a record, or an array of them):
 * r.x / a.x, r['x'] / a['x'], and r.x = v, r['x'] = v, a['x'] = v (SETITEM) */
int kn_typing_record_array(const KnType *t);
int kn_typing_record_array_has(const KnType *t, const char *name);
int kn_typing_record_getattr(KnCompilation *c, KnInstr *in, KnType *t);
int kn_typing_record_getitem(KnCompilation *c, KnInstr *in, KnType *t);
int kn_typing_record_setitem(KnCompilation *c, KnInstr *in);
/* record.c: 1 after a diagnostic when attribute `name` of t (an array of records or datetimes)
 * is one that such arrays do not have in kiln (their elements are not numbers) */
int kn_typing_record_array_refuses(KnCompilation *c, KnInstr *in, const KnType *t,
                                   const char *name);
/* functions.c: t is a jitted function with its dispatcher (a value that can be passed,
 * returned, stored); t can be passed to or returned from a jitted function */
int kn_typing_func_value(const KnType *t);
int kn_typing_passable(const KnType *t);
/* functions.c: t is a closure tuple (FUNC closure, captured values...); resolve a call of the
 * function value ft (a jitted function or a closure) with a[0..n) into *out (1: ft is neither,
 * -1 with a diagnostic); type the call `in` of closure ct */
int kn_typing_is_closure(const KnType *t);
int kn_typing_unknown_list(const KnType *t); /* t is or holds an empty [] of unknown items */
/* an untyped call whose arguments (or closure) hold such a list: 1 after its diagnostic */
int kn_typing_report_unknown_list(KnCompilation *c, KnInstr *in);
int kn_typing_resolve_value(KnCompilation *c, KnType *ft, KnType **a, int n, KnSpan span,
                            KnCallee *out);
int kn_typing_closure_call(KnCompilation *c, KnInstr *in, KnType *ct, KnType **a, int n);
/* functions.c: the choice among the jitted functions a tuple holds (NULL: not all are); the
 * call `in` of a choice ct */
KnType *kn_typing_func_items(KnCompilation *c, const KnType *tuple);
int kn_typing_choice_call(KnCompilation *c, KnInstr *in, KnType *ct, KnType **a, int n);
int kn_typing_truth_ok(KnCompilation *c, KnInstr *in, KnType *t);
KnType *kn_typing_np_scalar(int builtin_id);     /* np.float64 -> float64, NULL if not a dtype */
int kn_typing_scalar_class(const KnType *t);     /* float64 -> the entry of np.float64, or -1 */
int kn_typing_method_entry(const KnType *bound); /* registry entry of a bound method, or -1 */

/* construction.c: the layout ('C' or 'F') of a new array from order= (lower/create.c) */
int kn_typing_creation_order(KnCompilation *c, KnInstr *in, KnInstr *order, const KnType *like);

/* operator.c: an operator implemented by a registry entry of its operand's kind ("str.__add__");
 * *handled is 0 when there is none (typing.c's own rules apply) */
int kn_typing_operator(KnCompilation *c, KnInstr *in, int *handled);
/* operator.c: len/hash/int/float(v) through v's kind's "__len__" ... entry; -2 when none */
int kn_typing_dunder_builtin(KnCompilation *c, KnInstr *in, int id, KnType **a, int n);

/* optional.c: UNWRAPs inserted before blk's instruction i where it needs the values of optional
 * operands (returns how many, already typed); UNWRAP; `x is None` of an optional (1 when in is
 * one) */
int kn_typing_unwrap_operands(KnCompilation *c, KnBlock *blk, int i);
int kn_typing_print_optional_ok(const KnType *t);
void kn_typing_optional_isinstance(KnCompilation *c, KnInstr *in, int value, int none);
int kn_typing_unwrap(KnCompilation *c, KnInstr *in);
int kn_typing_optional_cmp(KnCompilation *c, KnInstr *in);
/* reach.c: the fixpoint's reached blocks: a CBR's condition folded to a constant by typing (0,
 * 1; -1 run time, -2 not typed); mark b's successors in live (only the taken side of a folded
 * condition); close live over every edge at a round's end and make it the blocks' reachable
 * flags (1 when they changed) */
int kn_typing_const_cond(const KnInstr *cbr);
void kn_typing_mark_live(const KnBlock *b, char *live);
int kn_typing_close_live(KnFunction *fn, char *live);

/* enum.c: an IntEnum operand k of in used as its int (unwrapped); `==`/`is` of an enum member
 * (1 when in is one, typed) */
int kn_typing_intenum_as_int(const KnInstr *in, int k);
int kn_typing_enum_cmp(KnCompilation *c, KnInstr *in);

/* namedtuple.c: the type of a namedtuple built by a call of its class (a TUPLE with a
 * KnNamedTuple); `p.x` of a namedtuple (0 when typed, 1 when x is no field) */
KnType *kn_typing_namedtuple_tuple(KnCompilation *c, KnInstr *in, KnType **items);
int kn_typing_namedtuple_attr(KnCompilation *c, KnInstr *in, KnType *t);

/* registry.c: type a call (or attribute) through its registry entry's rule */
int kn_typing_entry(KnCompilation *c, KnInstr *in, int id, KnType **a, int n);
/* the typing rules of the registry's entries (lib/registry.def): kn_type_rule_<rule> */
#define X(id, owner, name, flags, rule)                                                            \
    int kn_type_rule_##rule(KnCompilation *c, KnInstr *in, int bid, KnType **a, int n);
#include "lib/registry.def"
#undef X

/* overload.c: calls implemented in Python (kiln/lib, kiln.extending) */
int kn_typing_overload(KnCompilation *c, KnInstr *in, KnType *fn, KnType *bound, KnType **a, int n);
int kn_typing_overload_attr(KnCompilation *c, KnInstr *in, KnType *self); /* 1: none */
int kn_typing_has_overload_method(KnCompilation *c, KnType *self, const char *name, KnSpan span);
/* list.c: list displays, min/max/sum of a list (calls.c sends them) */
int kn_typing_build_list(KnCompilation *c, KnInstr *in);
int kn_typing_list_reduce(KnCompilation *c, KnInstr *in, int id, KnType **a, int n);
/* a comparison of two tuples holding strs or lists (typing/list.c); -2 when all items are numbers
 */
int kn_typing_tuple_compare(KnCompilation *c, KnInstr *in, const KnType *a, const KnType *b);
/* rules.c: a container read from a variable (v a LOAD) is stored into in a way that tells
 * more of its type (`l = []` then `l.append(1)`): the variable's type becomes the unification
 * of its type and t, and typing goes on for another round. Returns the variable's type (v's
 * new type), or NULL when v is not a variable's load or the types do not unify. */
KnType *kn_typing_refine(KnCompilation *c, KnInstr *v, KnType *t);
int kn_typing_take_refined(KnCompilation *c); /* a refinement happened since the last call */
/* dict.c: dicts and sets (displays, the item type of iterating over one, and the error of an
 * empty display whose types nothing tells: 1 when `in` is one, after the diagnostic) */
int kn_typing_build_dict(KnCompilation *c, KnInstr *in);
KnType *kn_typing_dict_iter_item(KnCompilation *c, const KnType *t);
int kn_typing_dict_untyped(KnCompilation *c, KnInstr *in);
/* locals.c: locals={name: type}: the variables' types fixed before the fixpoint; a store to
 * one (*handled = 1) checked to convert */
void kn_typing_locals_init(KnCompilation *c);
int kn_typing_locals_store(KnCompilation *c, KnInstr *in, int *handled);
/* iter.c: the iterator protocol */
int kn_typing_getiter(KnCompilation *c, KnInstr *in);
int kn_typing_iternext(KnCompilation *c, KnInstr *in);
/* generators.c: a generator's YIELD (fn->yield_type) */
int kn_typing_yield(KnCompilation *c, KnInstr *in, int *changed);


/* arrays.c */
KnType *kn_typing_elementwise_operand(KnType *a, KnType *b);
/* a NumPy ufunc call of scalars and arrays (broadcast, out=): its rule's shared part */
int kn_typing_ufunc(KnCompilation *c, KnInstr *in, int id);
/* npmath.c: the result and operand dtypes of a call of npmath ufunc id with args */
KnType *kn_typing_npmath_elem(int id, KnType **args, KnType **operand);
int kn_typing_array_binop(KnCompilation *c, KnInstr *in, KnType *a, KnType *b);
int kn_typing_array_cmp(KnCompilation *c, KnInstr *in, KnType *a, KnType *b);
int kn_typing_array_unop(KnCompilation *c, KnInstr *in, KnType *a);
int kn_typing_array_getattr(KnCompilation *c, KnInstr *in, KnType *t);
int kn_typing_array_getitem(KnCompilation *c, KnInstr *in, KnType *a, KnType *idx);
KnType *kn_typing_index_result(KnCompilation *c, KnSpan span, KnType *a, KnType *idx);
int kn_typing_index_is_fancy(const KnType *idx); /* an array in the index (arrays.c) */
int kn_typing_setitem(KnCompilation *c, KnInstr *in);
int kn_typing_reduction(KnCompilation *c, KnInstr *in, const char *name, KnType *a);
/* cumsum/cumprod along constant axis k (typing/sorting.c) */
int kn_type_cum_axis(KnCompilation *c, KnInstr *in, const char *name, KnType *a, int64_t k);
int kn_typing_reduction_axis(KnCompilation *c, KnInstr *in, const char *name, KnType *a,
                             KnInstr *axis);

#endif
