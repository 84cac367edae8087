/* What the files of the UCX layer share and no other layer sees. */
#ifndef AXON_UCX_INTERNAL_H
#define AXON_UCX_INTERNAL_H

#include <stdatomic.h>

/* Application threads inside axon_ucx_wait, counted where several threads may wait: the progress
 * thread stands back while one of them polls, and many of them yield their cores (axon_ucx_progress.c
 * counts, axon_ucx_progress_thread.c reads). */
extern atomic_int axon_ucx_waiters;

#endif
