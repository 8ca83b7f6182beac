/* interrupt.c - Ctrl-C for compiled code. CPython's SIGINT handler only records the signal;
 * Python acts on it between bytecodes, which a long compiled loop never reaches. At import,
 * if CPython handles SIGINT, kiln puts a handler in front of it that also sets
 * kn_rt_interrupt_flag - but only while the main thread runs compiled code - and then calls
 * CPython's handler as before. Compiled `while` loops (and entries of recursive functions that
 * have a status code) poll the flag and leave with KN_EXC_INTERRUPT; the dispatcher then runs
 * Python's signal handlers (PyErr_CheckSignals), which raise KeyboardInterrupt by default.
 * A later signal.signal(SIGINT, ...) replaces kiln's handler: loops are then no longer
 * interrupted, as before. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "dispatch/dispatch.h"

#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

static struct sigaction previous;
static volatile sig_atomic_t main_running; /* the main thread is inside compiled code */
/* initial-exec: one load, where the default model of a shared object calls __tls_get_addr
 * (that call was 5 ns of the dispatcher's ~47 ns per call) */
static _Thread_local int thread_is_main __attribute__((tls_model("initial-exec"))) = -1;

static void
on_sigint(int sig, siginfo_t *info, void *uctx)
{
    if (main_running)
        kn_rt_interrupt_flag = 1;
    if (previous.sa_flags & SA_SIGINFO)
        previous.sa_sigaction(sig, info, uctx);
    else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN)
        previous.sa_handler(sig);
}

void
kn_interrupt_install(void)
{
    struct sigaction cur;
    if (sigaction(SIGINT, NULL, &cur) < 0)
        return;
    if (!(cur.sa_flags & SA_SIGINFO) && (cur.sa_handler == SIG_DFL || cur.sa_handler == SIG_IGN))
        return; /* Python does not handle SIGINT here: leave it alone */
    previous = cur;
    struct sigaction sa = cur;
    sa.sa_sigaction = on_sigint;
    sa.sa_flags = cur.sa_flags | SA_SIGINFO;
    sigaction(SIGINT, &sa, NULL);
}

static int
is_main(void)
{
    if (thread_is_main < 0) {
#if defined(SYS_gettid)
        thread_is_main = (long)syscall(SYS_gettid) == (long)getpid();
#else
        thread_is_main = 0;
#endif
    }
    return thread_is_main;
}

int
kn_interrupt_enter(void)
{
    if (!is_main())
        return -1;
    int was = main_running;
    main_running = 1;
    return was;
}

void
kn_interrupt_leave(int token)
{
    if (token < 0)
        return;
    main_running = token;
    if (!token && kn_rt_interrupt_flag)
        kn_rt_interrupt_flag = 0; /* not polled: Python acts on the signal itself */
}

PyObject *
kn_interrupt_raise(void)
{
    kn_rt_interrupt_flag = 0;
    if (PyErr_CheckSignals() < 0)
        return NULL;
    /* Python's handler raised nothing, but the compiled call cannot be resumed */
    PyErr_SetNone(PyExc_KeyboardInterrupt);
    return NULL;
}
