/* What the fake CUDA driver (libaxon_fakecuda.so, axon_fakecuda.c) offers tests besides the driver API:
 * counts of the calls made to it and of the copies it did, by direction, so a test can assert how often
 * Axon went through the driver, and failures of Axon's copies on demand. Tests that load the fake with
 * dlopen look these up with dlsym (names in FAKECUDA_*_SYMBOL); tests linked against it call them. The
 * header needs no cuda.h. */
#ifndef AXON_FAKECUDA_H
#define AXON_FAKECUDA_H

/* Copies the fake did (every cuMemcpy* variant, synchronous or not), by direction. "Device" is what the
 * fake allocated as device or managed memory, or mapped from another process's IPC handle; anything
 * else is host memory (pinned memory included). */
struct fakecuda_copy_stats {
    unsigned long long htod, dtoh, dtod, htoh;
    unsigned long long bytes_htod, bytes_dtoh, bytes_dtod, bytes_htoh;
};

/* Calls of one entry point since the library was loaded (or the last reset), by its base name
 * ("cuMemcpyHtoD") or its exported name ("cuMemcpyHtoD_v2"); NULL: all entry points together. */
unsigned long long fakecuda_calls(const char *name);
void fakecuda_copy_stats(struct fakecuda_copy_stats *out);
/* Sets every count back to 0 (allocations, contexts and ids are untouched). */
void fakecuda_reset_stats(void);

/* Makes the synchronous copies (cuMemcpy, cuMemcpyHtoD, cuMemcpyDtoH, cuMemcpyDtoD) and cuMemcpyAsync
 * (Axon's copy stream; not the other async forms) fail with CUDA_ERROR_UNKNOWN, copying nothing: after skip more successful calls, the next
 * count calls. A test brackets the MPI call it means with it, making no copies of its own meanwhile. */
void fakecuda_fail_memcpy(unsigned long long skip, unsigned long long count);

#define FAKECUDA_CALLS_SYMBOL "fakecuda_calls"
#define FAKECUDA_COPY_STATS_SYMBOL "fakecuda_copy_stats"
#define FAKECUDA_RESET_STATS_SYMBOL "fakecuda_reset_stats"
#define FAKECUDA_FAIL_MEMCPY_SYMBOL "fakecuda_fail_memcpy"

typedef unsigned long long (*fakecuda_calls_fn)(const char *name);
typedef void (*fakecuda_copy_stats_fn)(struct fakecuda_copy_stats *out);
typedef void (*fakecuda_reset_stats_fn)(void);
typedef void (*fakecuda_fail_memcpy_fn)(unsigned long long skip, unsigned long long count);

#endif
