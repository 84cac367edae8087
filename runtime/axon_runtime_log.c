/* The library's messages to stderr. Every line names the library and, once the bootstrap knows it, the
 * rank and host, so a message from a job of many ranks says where it came from. */
#include "runtime/runtime.h"

#include <stdarg.h>
#include <stdio.h>

static void axon_runtime_log_vprint(const char *fmt, va_list ap)
{
    char line[1024];
    vsnprintf(line, sizeof(line), fmt, ap);
    if (axon_runtime_job.known)
        fprintf(stderr, "axon[rank %d on %s]: %s\n", axon_runtime_job.rank, axon_runtime_job.hostname, line);
    else
        fprintf(stderr, "axon: %s\n", line);
    fflush(stderr);
}

void axon_runtime_log_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    axon_runtime_log_vprint(fmt, ap);
    va_end(ap);
}

void axon_runtime_log_debug(int level, const char *fmt, ...)
{
    if (axon_config.verbose < level)
        return;
    va_list ap;
    va_start(ap, fmt);
    axon_runtime_log_vprint(fmt, ap);
    va_end(ap);
}
