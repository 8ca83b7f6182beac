/* kir.c - building and printing KIR, and the op table's queries. The builder appends instructions
 * to the current block and drops code after a terminator (it is unreachable). The printer gives the
 * text that KILN_DUMP=kir,typed and the stage tests show, and that ir/read.c reads back (keep the
 * two in step). The op table (ops.def) gives each op's name, arity, value, raises and pure columns;
 * the verifier is in ir/verify.c. */
#include "ir/kir.h"

#include <inttypes.h>
#include <stdio.h>

#define X(name, text, term, min, max, value, raises, pure)                                         \
    {text, term, min, max, value, KN_OPF_##raises, KN_OPF_##pure},
static const struct {
    const char *text;
    int term, min_args, max_args, value;
    KnOpFlag raises, pure;
} op_table[] = {
#include "ir/ops.def"
};
#undef X

const char *
kn_kir_builtin_module(KnBuiltin id)
{
    return kn_lib_entry(id)->owner;
}

const char *
kn_kir_builtin_attr(KnBuiltin id)
{
    return kn_lib_entry(id)->name;
}

/* "math.sqrt", "numpy.sum", but plain "abs" for builtins */
const char *
kn_kir_builtin_name(KnBuiltin id)
{
    const KnCallEntry *e = kn_lib_entry(id);
    return strcmp(e->owner, "builtins") ? e->key : e->name;
}

const char *
kn_kir_op_name(KnOp op)
{
    return op < KN_OP__COUNT ? op_table[op].text : "?";
}

int
kn_kir_op_is_terminator(KnOp op)
{
    return op < KN_OP__COUNT && op_table[op].term;
}

int
kn_kir_op_has_value(KnOp op)
{
    return op < KN_OP__COUNT && op_table[op].value;
}

KnOpFlag
kn_kir_op_raises(KnOp op)
{
    return op < KN_OP__COUNT ? op_table[op].raises : KN_OPF_YES;
}

KnOpFlag
kn_kir_op_pure(KnOp op)
{
    return op < KN_OP__COUNT ? op_table[op].pure : KN_OPF_NO;
}

int
kn_kir_op_min_args(KnOp op)
{
    return op < KN_OP__COUNT ? op_table[op].min_args : 0;
}

int
kn_kir_op_max_args(KnOp op)
{
    return op < KN_OP__COUNT ? op_table[op].max_args : -1;
}

KnOp
kn_kir_op_by_name(const char *text, size_t n)
{
    for (int op = 0; op < KN_OP__COUNT; op++)
        if (strlen(op_table[op].text) == n && !strncmp(op_table[op].text, text, n))
            return (KnOp)op;
    return KN_OP__COUNT;
}

const char *
kn_kir_binop_symbol(KnBinop op)
{
    static const char *const s[] = {"+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^"};
    return op < KN_BIN__COUNT ? s[op] : "?";
}

const char *
kn_kir_cmp_symbol(KnCmp op)
{
    static const char *const s[] = {"==", "!=", "<", "<=", ">", ">=", "in", "not in"};
    return s[op];
}

KnFunction *
kn_kir_function_new(KnArena *a, const char *name, const char *filename)
{
    KnFunction *fn = kn_arena_alloc(a, sizeof(KnFunction));
    fn->name = kn_arena_strdup(a, name);
    fn->filename = kn_arena_strdup(a, filename);
    return fn;
}

KnBlock *
kn_kir_block_new(KnBuilder *b)
{
    KnBlock *blk = kn_arena_alloc(b->arena, sizeof(KnBlock));
    blk->id = b->fn->blocks.len;
    blk->unwind = b->unwind;
    KN_VEC_PUSH(b->arena, b->fn->blocks, blk);
    return blk;
}

int
kn_kir_var_find(KnFunction *fn, const char *name)
{
    for (int i = 0; i < fn->vars.len; i++)
        if (!strcmp(fn->vars.items[i].name, name))
            return i;
    return -1;
}

int
kn_kir_var_add(KnBuilder *b, const char *name, KnSpan span)
{
    KnVar v;
    memset(&v, 0, sizeof v);
    v.name = kn_arena_strdup(b->arena, name);
    v.span = span;
    KN_VEC_PUSH(b->arena, b->fn->vars, v);
    return b->fn->vars.len - 1;
}

KnInstr *
kn_kir_emit(KnBuilder *b, KnOp op, KnSpan span, int nargs, KnInstr **args)
{
    KnInstr *in = kn_arena_alloc(b->arena, sizeof(KnInstr));
    in->op = op;
    in->id = b->fn->next_id++;
    in->span = span;
    in->nargs = nargs;
    if (nargs) {
        in->args = kn_arena_alloc(b->arena, sizeof(KnInstr *) * (size_t)nargs);
        memcpy(in->args, args, sizeof(KnInstr *) * (size_t)nargs);
    }
    if (b->cur)
        KN_VEC_PUSH(b->arena, b->cur->instrs, in);
    if (kn_kir_op_is_terminator(op))
        b->cur = NULL;
    return in;
}

KnInstr *
kn_kir_emit1(KnBuilder *b, KnOp op, KnSpan span, KnInstr *a0)
{
    return kn_kir_emit(b, op, span, 1, &a0);
}

KnInstr *
kn_kir_emit2(KnBuilder *b, KnOp op, KnSpan span, KnInstr *a0, KnInstr *a1)
{
    KnInstr *args[2] = {a0, a1};
    return kn_kir_emit(b, op, span, 2, args);
}

void
kn_kir_br(KnBuilder *b, KnSpan span, KnBlock *target)
{
    if (!b->cur)
        return;
    KnInstr *in = kn_kir_emit(b, KN_OP_BR, span, 0, NULL);
    in->targets[0] = target;
}

void
kn_kir_cbr(KnBuilder *b, KnSpan span, KnInstr *cond, KnBlock *t, KnBlock *f)
{
    if (!b->cur)
        return;
    KnInstr *in = kn_kir_emit1(b, KN_OP_CBR, span, cond);
    in->targets[0] = t;
    in->targets[1] = f;
}

KnInstr *
kn_kir_iternext(KnBuilder *b, KnSpan span, KnInstr *it, KnBlock *item, KnBlock *done)
{
    if (!b->cur)
        return NULL;
    KnInstr *in = kn_kir_emit1(b, KN_OP_ITERNEXT, span, it);
    in->targets[0] = item;
    in->targets[1] = done;
    return in;
}

void
kn_kir_set_block(KnBuilder *b, KnBlock *blk)
{
    b->cur = blk;
}

KnInstr *
kn_kir_terminator(const KnBlock *blk)
{
    if (!blk->instrs.len)
        return NULL;
    KnInstr *last = blk->instrs.items[blk->instrs.len - 1];
    return kn_kir_op_is_terminator(last->op) ? last : NULL;
}

/* ---- printing ---- */

/* A string constant in double quotes, with \\, \" and bytes outside printable ASCII escaped
 * (\n, \t, \xNN), so that one constant is one line and the reader gets the same bytes back. */
static void
print_str(KnStrBuf *sb, const char *s)
{
    kn_sb_append(sb, " \"");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            kn_sb_printf(sb, "\\%c", *p);
        else if (*p == '\n')
            kn_sb_append(sb, "\\n");
        else if (*p == '\t')
            kn_sb_append(sb, "\\t");
        else if (*p < 0x20 || *p >= 0x7f)
            kn_sb_printf(sb, "\\x%02x", *p);
        else
            kn_sb_printf(sb, "%c", *p);
    }
    kn_sb_append(sb, "\"");
}

/* Untyped text shows a constant's type (set by the frontend) only when its literal does not
 * say it: an integer literal is int64, one with a '.', an exponent, inf or nan is float64. */
static int
const_type_is_implied(const KnInstr *in)
{
    const KnType *t = in->type;
    if (t == &kn_type_int64 || t == &kn_type_complex128 || t == &kn_type_str ||
        t == &kn_type_none || t == &kn_type_ellipsis)
        return 1;
    if (t != &kn_type_float64)
        return 0;
    char buf[40];
    snprintf(buf, sizeof buf, "%.17g", in->imm.f);
    return strpbrk(buf, ".eni") != NULL;
}

static void
print_slice(KnStrBuf *sb, const KnSlice *s)
{
    kn_sb_append(sb, " [");
    if (s->has_start)
        kn_sb_printf(sb, "%" PRId64, s->start);
    kn_sb_append(sb, ":");
    if (s->has_stop)
        kn_sb_printf(sb, "%" PRId64, s->stop);
    if (s->has_step)
        kn_sb_printf(sb, ":%" PRId64, s->step);
    kn_sb_append(sb, "]");
}

static void
print_imm(KnStrBuf *sb, const KnInstr *in, const KnFunction *fn)
{
    switch (in->op) {
    case KN_OP_CONST:
        if (!in->type)
            break;
        switch (in->type->kind) {
        case KN_TY_BOOL:
        case KN_TY_INT:
            if (in->type->is_signed || in->type->kind == KN_TY_BOOL)
                kn_sb_printf(sb, " %" PRId64, in->imm.i);
            else
                kn_sb_printf(sb, " %" PRIu64, in->imm.u);
            break;
        case KN_TY_FLOAT:
            kn_sb_printf(sb, " %.17g", in->imm.f);
            break;
        case KN_TY_COMPLEX:
            kn_sb_printf(sb, " (%.17g%+.17gj)", in->imm.c.re, in->imm.c.im);
            break;
        case KN_TY_STR:
            print_str(sb, in->imm.str);
            break;
        case KN_TY_ENUM:     /* a member: its value */
        case KN_TY_DATETIME: /* a frozen np.datetime64: its count (NaT: INT64_MIN) */
        case KN_TY_TIMEDELTA:
            kn_sb_printf(sb, " %" PRId64, in->imm.i);
            break;
        default:
            kn_sb_append(sb, in->type == &kn_type_ellipsis ? " ..." : " None");
        }
        break;
    case KN_OP_GLOBAL:
        kn_sb_printf(sb, " %s", in->type ? in->type->name : "?");
        break;
    case KN_OP_ARG:
        kn_sb_printf(sb, " %d", in->aux);
        break;
    case KN_OP_LOAD:
    case KN_OP_STORE:
        kn_sb_printf(sb, " %s", fn->vars.items[in->aux].name);
        break;
    case KN_OP_BINOP:
        kn_sb_printf(sb, " %s", kn_kir_binop_symbol((KnBinop)in->aux));
        if (in->imm.i)
            kn_sb_append(sb, "="); /* augmented: arrays in place */
        break;
    case KN_OP_UNOP: {
        static const char *const u[] = {"-", "+", "~", "not"};
        kn_sb_printf(sb, " %s", u[in->aux]);
        break;
    }
    case KN_OP_CMP:
        if (in->imm.i) /* `is` / `is not`: == / != that typing may fold */
            kn_sb_append(sb, in->aux == KN_CMP_EQ ? " is" : " is not");
        else
            kn_sb_printf(sb, " %s", kn_kir_cmp_symbol((KnCmp)in->aux));
        break;
    case KN_OP_GETITEM:
        if (in->aux)
            kn_sb_printf(sb, " unpack %d", in->aux);
        break;
    case KN_OP_SLICE:
        if (in->imm.ptr)
            print_slice(sb, in->imm.ptr);
        break;
    case KN_OP_GETATTR:
        kn_sb_printf(sb, " .%s", in->imm.str);
        break;
    case KN_OP_CAST:
        kn_sb_printf(sb, " to %s", in->type ? in->type->name : "?");
        break;
    case KN_OP_CALL:
        if (in->aux) { /* the last aux arguments are keywords */
            const char **names = in->imm.ptr;
            kn_sb_append(sb, " kw(");
            for (int k = 0; k < in->aux; k++)
                kn_sb_printf(sb, "%s%s", k ? "," : "", names[k]);
            kn_sb_append(sb, ")");
        }
        break;
    case KN_OP_MAKESLICE:
        kn_sb_printf(sb, " %s%s%s", in->aux & 1 ? "start" : "_", in->aux & 2 ? ":stop" : ":_",
                     in->aux & 4 ? ":step" : "");
        break;

    case KN_OP_RAISE:
        kn_sb_printf(sb, " exc#%d", in->aux);
        if (in->imm.i > 0) /* raise ... from e: e's try (frontend/try.c) */
            kn_sb_printf(sb, " cause try#%d", (int)in->imm.i);
        break;
    case KN_OP_EXC_MATCH:
    case KN_OP_RERAISE: /* the try whose exception it saves / raises again (frontend/try.c) */
        if (in->aux > 0)
            kn_sb_printf(sb, " try#%d", in->aux);
        break;
    case KN_OP_GETITER: {
        static const char *const k[] = {"seq", "enumerate", "zip", "range", "gen"};
        kn_sb_printf(sb, " %s", in->aux >= 0 && in->aux < 5 ? k[in->aux] : "?");
        break;
    }
    default:
        break;
    }
}

static void
print_instr(KnStrBuf *sb, const KnInstr *in, const KnFunction *fn, int with_types)
{
    int has_value = kn_kir_op_has_value(in->op);
    kn_sb_append(sb, "    ");
    if (has_value)
        kn_sb_printf(sb, "%%%d = ", in->id);
    kn_sb_append(sb, kn_kir_op_name(in->op));
    print_imm(sb, in, fn);
    for (int i = 0; i < in->nargs; i++)
        kn_sb_printf(sb, "%s%%%d", i ? ", " : " ", in->args[i]->id);
    if (in->op == KN_OP_BR)
        kn_sb_printf(sb, " b%d", in->targets[0]->id);
    if (in->op == KN_OP_CBR || in->op == KN_OP_ITERNEXT)
        kn_sb_printf(sb, " ? b%d : b%d", in->targets[0]->id, in->targets[1]->id);
    if (has_value && in->type &&
        (with_types || (in->op == KN_OP_CONST && !const_type_is_implied(in))))
        kn_sb_printf(sb, " : %s", in->type->name);
    kn_sb_printf(sb, "    ; %d:%d\n", in->span.line, in->span.col);
}

void
kn_kir_print(KnStrBuf *sb, const KnFunction *fn, int with_types)
{
    kn_sb_printf(sb, "function %s(", fn->name);
    for (int i = 0; i < fn->nparams; i++) {
        const KnVar *v = &fn->vars.items[i];
        kn_sb_printf(sb, "%s%s", i ? ", " : "", v->name);
        if (with_types && v->type)
            kn_sb_printf(sb, ": %s", v->type->name);
    }
    kn_sb_append(sb, ")");
    if (with_types && fn->ret_type)
        kn_sb_printf(sb, " -> %s", fn->ret_type->name);
    kn_sb_append(sb, "\n");
    for (int i = fn->nparams; i < fn->vars.len; i++) { /* in index order, for the reader */
        const KnVar *v = &fn->vars.items[i];
        if (with_types)
            kn_sb_printf(sb, "  var %s: %s\n", v->name, v->type ? v->type->name : "?");
        else
            kn_sb_printf(sb, "  var %s\n", v->name);
    }
    for (int b = 0; b < fn->blocks.len; b++) {
        const KnBlock *blk = fn->blocks.items[b];
        kn_sb_printf(sb, "  b%d:", blk->id);
        if (blk->unwind)
            kn_sb_printf(sb, " unwind b%d", blk->unwind->id);
        kn_sb_append(sb, "\n");
        for (int i = 0; i < blk->instrs.len; i++)
            print_instr(sb, blk->instrs.items[i], fn, with_types);
    }
}
