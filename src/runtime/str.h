/* str.h - the run-time form of a Python str in compiled code (KnStr) and the kn_rt_str_* routines
 * that work on it. The characters keep CPython's PEP 393 layout (1, 2 or 4 bytes per code point,
 * the narrowest that holds the largest one), so a str argument is borrowed from its Python object
 * without a copy or an allocation, and returning one is one memcpy into PyUnicode_New. Every
 * routine switches on the kinds once at entry and runs a loop specialised for them; the all-ASCII
 * kind-1 case is the fast path. Uses only base/ and runtime.h: no Python.h here. */
#ifndef KN_RUNTIME_STR_H
#define KN_RUNTIME_STR_H

#include <stdint.h>

#include "runtime/runtime.h"

/* A str value. Its lowering is the LLVM struct of these fields in this order (an ABI: compiled
 * code passes pointers to it to the kn_rt_str_* routines).
 *
 * Ownership: `mi` counts the characters' memory. NULL means borrowed: the characters belong to a
 * Python str (`parent`, alive for the whole call: an argument, an item of an argument, a frozen
 * constant) or to static memory (a literal in the code, `parent` NULL). A borrowed str that is
 * stored where it may outlive the call (an item of a container that Python holds, the value
 * returned) is first made owned (kn_rt_str_own), or boxed back as its parent. An owned str's
 * characters may be a view into another owned str's memory (a slice), sharing its mi.
 *
 * The characters are not NUL-terminated in general (views); routines use `length`. */
typedef struct KnStr {
    KnMemInfo *mi;    /* the counted owner of the characters; NULL: borrowed */
    const void *data; /* length code points of kind bytes each */
    int64_t length;   /* in code points */
    int32_t kind;     /* 1, 2 or 4 (PEP 393: the narrowest kind that holds every code point) */
    int32_t ascii;    /* 1: every code point is below 128 (implies kind 1) */
    int64_t hash;     /* CPython's hash(s), or -1 when not computed yet */
    void *parent;     /* the PyObject * a borrowed str came from; NULL otherwise */
} KnStr;

#endif
