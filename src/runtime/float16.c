/* float16.c - the conversions of IEEE half precision (NumPy's float16) that LLVM's code calls
 * when the CPU has no instruction for them (without F16C: every one; with it, double to half).
 * LLVM names them as libgcc does (__truncdfhf2, __truncsfhf2, __extendhfsf2); module.c registers
 * these under those names, so the JIT never depends on which libgcc the process loaded. The C
 * compiler's _Float16 rounds to nearest even, once, as NumPy's npy_double_to_half does. The
 * boxing of float16 scalars (dispatch/box_number.c) uses the same functions. */
#include "runtime/runtime.h"

_Float16
kn_rt_f16_from_f64(double x)
{
    return (_Float16)x;
}

_Float16
kn_rt_f16_from_f32(float x)
{
    return (_Float16)x;
}

float
kn_rt_f16_to_f32(_Float16 h)
{
    return (float)h;
}
