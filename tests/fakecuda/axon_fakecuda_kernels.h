/* The fake driver's reduction kernels (axon_fakecuda_kernels.c), for axon_fakecuda.c's cuLaunchKernel. */
#ifndef AXON_FAKECUDA_KERNELS_H
#define AXON_FAKECUDA_KERNELS_H

#include <stddef.h>

struct fk_kernel {
    const char *name; /* axon_reduce_<op>_<type> */
    void (*run)(const void *in, void *inout, unsigned long long n);
};

/* The kernel called name, or NULL when the fake cannot run it. */
const struct fk_kernel *fk_kernel_find(const char *name);
/* The bytes of one element of its type. */
size_t fk_kernel_element_size(const struct fk_kernel *k);

#endif
