/* Streaming copies of host memory: many bytes that another process reads next (a put into a node
 * peer's window, a get out of one), moved with non-temporal stores. A copy that large leaves the caches
 * anyway; ordinary stores first read every destination line into the cache (the read for ownership),
 * which costs a third of the memory traffic of a copy and evicts what the program had there. glibc's
 * memcpy streams only above a threshold it derives from the cache size, which virtual machines often
 * report as hundreds of megabytes. The widest vector unit the CPU has is chosen once. Other
 * architectures copy with memcpy. */
#include "memkind/axon_memkind.h"

#include <stdint.h>
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>

/* The body of one width: dst aligned to the vector, n a multiple of four vectors. */
#define AXON_STREAM_LOOP(vec, load, store, width)                                                         \
    for (size_t i = 0; i < n; i += 4 * (width)) {                                                      \
        vec a = load((const void *)(s + i));                                                            \
        vec b = load((const void *)(s + i + (width)));                                                  \
        vec c = load((const void *)(s + i + 2 * (width)));                                              \
        vec e = load((const void *)(s + i + 3 * (width)));                                              \
        store((void *)(d + i), a);                                                                      \
        store((void *)(d + i + (width)), b);                                                            \
        store((void *)(d + i + 2 * (width)), c);                                                        \
        store((void *)(d + i + 3 * (width)), e);                                                        \
    }

__attribute__((target("avx512f"))) static void axon_stream_avx512(char *d, const char *s, size_t n)
{
    AXON_STREAM_LOOP(__m512i, _mm512_loadu_si512, _mm512_stream_si512, 64)
}

__attribute__((target("avx"))) static void axon_stream_avx(char *d, const char *s, size_t n)
{
    AXON_STREAM_LOOP(__m256i, _mm256_loadu_si256, _mm256_stream_si256, 32)
}

static void axon_stream_sse2(char *d, const char *s, size_t n)
{
    AXON_STREAM_LOOP(__m128i, _mm_loadu_si128, _mm_stream_si128, 16)
}

typedef void axon_stream_fn(char *d, const char *s, size_t n);

static axon_stream_fn *axon_stream_pick(size_t *width)
{
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) {
        *width = 64;
        return axon_stream_avx512;
    }
    if (__builtin_cpu_supports("avx")) {
        *width = 32;
        return axon_stream_avx;
    }
    *width = 16;
    return axon_stream_sse2;
}

void axon_memkind_host_stream_copy(void *dst, const void *src, size_t len)
{
    static axon_stream_fn *fn;
    static size_t width;
    axon_stream_fn *f = __atomic_load_n(&fn, __ATOMIC_ACQUIRE);
    if (!f) {
        size_t w;
        f = axon_stream_pick(&w);
        __atomic_store_n(&width, w, __ATOMIC_RELAXED);
        __atomic_store_n(&fn, f, __ATOMIC_RELEASE);
    }
    size_t w = __atomic_load_n(&width, __ATOMIC_RELAXED);
    char *d = dst;
    const char *s = src;
    /* Ordinary stores up to the destination's alignment and for the tail. */
    size_t head = (size_t)(-(uintptr_t)d & (w - 1));
    if (head > len)
        head = len;
    memcpy(d, s, head);
    d += head, s += head, len -= head;
    size_t body = len / (4 * w) * (4 * w);
    if (body)
        f(d, s, body);
    memcpy(d + body, s + body, len - body);
    /* Streaming stores are weakly ordered: fenced, so whatever tells a peer the bytes are there (a
     * flag, an unlock) comes after them. */
    _mm_sfence();
}

#else

void axon_memkind_host_stream_copy(void *dst, const void *src, size_t len)
{
    memcpy(dst, src, len);
}

#endif
