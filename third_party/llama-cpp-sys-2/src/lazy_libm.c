/* The libm functions llama.cpp (and SQLite's FTS5) call, bound on first use
 * (but `pow`: src/lib.rs).
 *
 * A binary that imports any libm symbol names libm.so.6 in its dynamic
 * section, and the dynamic loader maps it, relocates it and, the binary
 * being linked with full RELRO, runs every imported function's IFUNC
 * resolver at each start: about 0.5 MiB of a one-turn `amplifier run`'s
 * peak RSS (docs/dev/benchmarks.md, W1), though only a run of the local
 * model calls any of them. Defined here, each function loads libm.so.6
 * with dlopen on its first call and then calls glibc's own implementation
 * through a pointer: the same code (`__expf_fma` on a CPU with FMA), so
 * the model decodes as fast, with one predictable branch more per call.
 *
 * Built on GNU/Linux only (build.rs). A libm function llama.cpp starts to
 * use brings libm.so.6 back into the dynamic section, which a test of the
 * amplifier binary catches (tests/run.rs): add it to the list below. */

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static void *lazy_libm_symbol(const char *name) {
    static void *libm;
    void *handle = __atomic_load_n(&libm, __ATOMIC_ACQUIRE);
    if (handle == NULL) {
        /* Two threads may both open it: dlopen counts references, and
         * either handle finds the same symbols. */
        handle = dlopen("libm.so.6", RTLD_NOW | RTLD_LOCAL);
        if (handle == NULL) {
            fprintf(stderr, "llama.cpp: cannot load libm.so.6 for %s: %s\n", name, dlerror());
            abort();
        }
        __atomic_store_n(&libm, handle, __ATOMIC_RELEASE);
    }
    /* The default version, the one a link against libm binds to. */
    void *symbol = dlsym(handle, name);
    if (symbol == NULL) {
        fprintf(stderr, "llama.cpp: libm.so.6 has no %s: %s\n", name, dlerror());
        abort();
    }
    return symbol;
}

#define LAZY(ret, name, params, args)                                                  \
    ret name params {                                                                  \
        static ret(*bound) params;                                                     \
        ret(*call) params = __atomic_load_n(&bound, __ATOMIC_ACQUIRE);                 \
        if (__builtin_expect(call == NULL, 0)) {                                       \
            call = (ret(*) params)lazy_libm_symbol(#name);                             \
            __atomic_store_n(&bound, call, __ATOMIC_RELEASE);                          \
        }                                                                              \
        return call args;                                                              \
    }

LAZY(float, cosf, (float x), (x))
LAZY(float, erff, (float x), (x))
LAZY(float, expf, (float x), (x))
LAZY(float, expm1f, (float x), (x))
LAZY(float, ldexpf, (float x, int e), (x, e))
LAZY(double, log, (double x), (x))
LAZY(double, log2, (double x), (x))
LAZY(float, log2f, (float x), (x))
LAZY(float, logf, (float x), (x))
LAZY(long, lroundf, (float x), (x))
LAZY(float, powf, (float x, float y), (x, y))
LAZY(void, sincosf, (float x, float *s, float *c), (x, s, c))
LAZY(float, sinf, (float x), (x))
LAZY(float, tanhf, (float x), (x))
