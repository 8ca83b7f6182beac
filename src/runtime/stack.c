/* stack.c - what compiled code needs to stop instead of running away: the lowest stack address
 * a recursive compiled call may use on this thread, and the interrupt flag that compiled
 * `while` loops and recursive entries poll.
 *
 * Stack limit. A function in a recursion cycle takes a hidden last argument, `limit`, and at
 * entry raises RecursionError when its frame address is below it; each call it makes inside the
 * cycle passes limit + KN_RECURSION_LEVEL_BYTES, so a recursion that LLVM turned into a loop
 * (tail-call elimination) still runs out of budget. The first limit comes from here: the low
 * end of this thread's stack (pthread_getattr_np, once per thread) plus a reserve for the
 * deepest frame's non-recursive callees. Pure C over base/: no Python, no LLVM. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* pthread_getattr_np */
#endif
#include "runtime/runtime.h"

#include <pthread.h>

volatile int32_t kn_rt_interrupt_flag;

static _Thread_local uintptr_t stack_limit __attribute__((tls_model("initial-exec")));

/* The reserve below the limit: an eighth of the stack, between 16 KiB and 256 KiB (8 MiB
 * main stack: 256 KiB; threading.stack_size(256 KiB): 32 KiB). */
static uintptr_t
reserve_for(size_t size)
{
    size_t r = size / 8;
    if (r < 16 * 1024)
        r = 16 * 1024;
    if (r > 256 * 1024)
        r = 256 * 1024;
    return r;
}

static uintptr_t
compute_limit(void)
{
    char here;
    uintptr_t sp = (uintptr_t)&here;
#if defined(__linux__)
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        void *addr = NULL;
        size_t size = 0;
        int rc = pthread_attr_getstack(&attr, &addr, &size);
        pthread_attr_destroy(&attr);
        uintptr_t low = (uintptr_t)addr;
        if (rc == 0 && size && low < sp && sp - low <= size)
            return low + reserve_for(size);
    }
#endif
    /* unknown bounds: allow 1 MiB below the first compiled call of this thread */
    return sp > (1u << 20) ? sp - (1u << 20) : 0;
}

uintptr_t
kn_rt_stack_limit(void)
{
    uintptr_t l = stack_limit;
    if (!l)
        l = stack_limit = compute_limit();
    return l;
}
