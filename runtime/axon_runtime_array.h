/* The number of elements of an array, for loops and bounds over the static tables (knobs, names, error
 * strings, signals): one name for AXON_ARRAY_SIZE(a), which is wrong only silently when a is a
 * pointer. Shared by the library and mpirun, which include nothing else of runtime/ in common. */
#ifndef AXON_RUNTIME_ARRAY_H
#define AXON_RUNTIME_ARRAY_H

#define AXON_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
