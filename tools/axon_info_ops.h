/* axon_info --ops (tools/axon_info_ops.c). */
#ifndef AXON_INFO_OPS_H
#define AXON_INFO_OPS_H

/* Prints which predefined operations reduce which predefined datatypes, on the host and on the GPU. */
int axon_info_ops(void);

#endif
