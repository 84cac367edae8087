/* Axon MPI: the C interface of MPI 4.1, with MPICH's ABI.
 *
 * Every handle type, handle value, constant and the MPI_Status layout match the MPICH ABI, so a program
 * built against MPICH's mpi.h runs on libmpi.so.12 (or libmpich.so.12) from Axon, and one built against
 * this header runs on MPICH. The values below are those the MPICH ABI fixes; the layout of the text is
 * Axon's own. Handles are ints whose bits say what they are: bits 30-31 the kind (1 predefined,
 * 2 direct, 3 indirect), bits 26-29 the object type; a predefined datatype carries its size in bits 8-15.
 *
 * Every function has a PMPI_ twin for profiling tools. No other vendor's identifying macro is defined:
 * clients that see MPICH_NAME or OPEN_MPI skip their feature probes.
 */
#ifndef MPI_INCLUDED
#define MPI_INCLUDED

#include <stddef.h>
#include <stdint.h>

#if defined(__cplusplus)
extern "C" {
#endif

/* ---- identity --------------------------------------------------------------------------------- */

/* The standard whose interface the library has: every function of MPI 4.1 is exported (MPI-IO and
 * dynamic processes answer MPI_ERR_UNSUPPORTED_OPERATION), and clients gate
 * MPI-4 code (sessions, partitioned and persistent collective calls, large counts) on this value. */
#define MPI_VERSION 4
#define MPI_SUBVERSION 1

#define AXON_MPI 1
#define AXON_MPI_VERSION "0.1.0"
#define AXON_MPI_NUMVERSION 100 /* major * 10000 + minor * 100 + patch */

/* This library takes GPU (CUDA) buffers in point-to-point calls and collectives; whether it does in a
 * given run (a driver and a GPU were found, AXON_CUDA is not 0) is MPIX_Query_cuda_support()'s answer
 * (mpi-ext.h). Defined here too, not only in mpi-ext.h as Open MPI does: PyTorch's c10d looks for it
 * after including mpi.h alone. */
#ifndef MPIX_CUDA_AWARE_SUPPORT
#define MPIX_CUDA_AWARE_SUPPORT 1
#endif

/* ---- scalar types ----------------------------------------------------------------------------- */

typedef long MPI_Aint;
typedef int MPI_Fint;
typedef long MPI_Count;
typedef long MPI_Offset;
/* printf formats of an MPI_Aint (MPICH's names). */
#define MPI_AINT_FMT_DEC_SPEC "%ld"
#define MPI_AINT_FMT_HEX_SPEC "%lx"

/* ---- handle types ----------------------------------------------------------------------------- */

typedef int MPI_Comm;
typedef int MPI_Group;
typedef int MPI_Datatype;
typedef int MPI_Op;
typedef int MPI_Errhandler;
typedef int MPI_Request;
typedef int MPI_Message;
typedef int MPI_Info;
typedef int MPI_Win;
typedef int MPI_Session;
typedef struct ADIOI_FileD *MPI_File; /* the MPICH ABI's opaque file pointer; Axon has no MPI-IO */

/* The status a receive fills in: the element count (in bytes, split over two ints, with the
 * cancelled flag in the low bit of the second), then the three fields the standard names. */
typedef struct MPI_Status {
    int count_lo;
    int count_hi_and_cancelled;
    int MPI_SOURCE;
    int MPI_TAG;
    int MPI_ERROR;
} MPI_Status;

/* ---- null and predefined handles -------------------------------------------------------------- */

#define MPI_COMM_NULL ((MPI_Comm)0x04000000)
#define MPI_GROUP_NULL ((MPI_Group)0x08000000)
#define MPI_DATATYPE_NULL ((MPI_Datatype)0x0c000000)
#define MPI_ERRHANDLER_NULL ((MPI_Errhandler)0x14000000)
#define MPI_OP_NULL ((MPI_Op)0x18000000)
#define MPI_INFO_NULL ((MPI_Info)0x1c000000)
#define MPI_WIN_NULL ((MPI_Win)0x20000000)
#define MPI_REQUEST_NULL ((MPI_Request)0x2c000000)
#define MPI_MESSAGE_NULL ((MPI_Message)0x2c000000)
#define MPI_MESSAGE_NO_PROC ((MPI_Message)0x6c000000)
#define MPI_SESSION_NULL ((MPI_Session)0x38000000)
#define MPI_FILE_NULL ((MPI_File)0)

#define MPI_COMM_WORLD ((MPI_Comm)0x44000000)
#define MPI_COMM_SELF ((MPI_Comm)0x44000001)
#define MPI_GROUP_EMPTY ((MPI_Group)0x48000000)
#define MPI_INFO_ENV ((MPI_Info)0x5c000001)

#define MPI_ERRORS_ARE_FATAL ((MPI_Errhandler)0x54000000)
#define MPI_ERRORS_RETURN ((MPI_Errhandler)0x54000001)
#define MPI_ERRORS_ABORT ((MPI_Errhandler)0x54000003)

/* ---- predefined datatypes: C ------------------------------------------------------------------ */

#define MPI_CHAR ((MPI_Datatype)0x4c000101)
#define MPI_SIGNED_CHAR ((MPI_Datatype)0x4c000118)
#define MPI_UNSIGNED_CHAR ((MPI_Datatype)0x4c000102)
#define MPI_BYTE ((MPI_Datatype)0x4c00010d)
#define MPI_WCHAR ((MPI_Datatype)0x4c00040e)
#define MPI_SHORT ((MPI_Datatype)0x4c000203)
#define MPI_UNSIGNED_SHORT ((MPI_Datatype)0x4c000204)
#define MPI_INT ((MPI_Datatype)0x4c000405)
#define MPI_UNSIGNED ((MPI_Datatype)0x4c000406)
#define MPI_LONG ((MPI_Datatype)0x4c000807)
#define MPI_UNSIGNED_LONG ((MPI_Datatype)0x4c000808)
#define MPI_LONG_LONG_INT ((MPI_Datatype)0x4c000809)
#define MPI_LONG_LONG MPI_LONG_LONG_INT
#define MPI_UNSIGNED_LONG_LONG ((MPI_Datatype)0x4c000819)
#define MPI_FLOAT ((MPI_Datatype)0x4c00040a)
#define MPI_DOUBLE ((MPI_Datatype)0x4c00080b)
#define MPI_LONG_DOUBLE ((MPI_Datatype)0x4c00100c)
#define MPI_PACKED ((MPI_Datatype)0x4c00010f)
#define MPI_LB ((MPI_Datatype)0x4c000010)
#define MPI_UB ((MPI_Datatype)0x4c000011)

#define MPI_INT8_T ((MPI_Datatype)0x4c000137)
#define MPI_INT16_T ((MPI_Datatype)0x4c000238)
#define MPI_INT32_T ((MPI_Datatype)0x4c000439)
#define MPI_INT64_T ((MPI_Datatype)0x4c00083a)
#define MPI_UINT8_T ((MPI_Datatype)0x4c00013b)
#define MPI_UINT16_T ((MPI_Datatype)0x4c00023c)
#define MPI_UINT32_T ((MPI_Datatype)0x4c00043d)
#define MPI_UINT64_T ((MPI_Datatype)0x4c00083e)
#define MPI_C_BOOL ((MPI_Datatype)0x4c00013f)
#define MPI_C_FLOAT_COMPLEX ((MPI_Datatype)0x4c000840)
#define MPI_C_COMPLEX MPI_C_FLOAT_COMPLEX
#define MPI_C_DOUBLE_COMPLEX ((MPI_Datatype)0x4c001041)
#define MPI_C_LONG_DOUBLE_COMPLEX ((MPI_Datatype)0x4c002042)
#define MPI_AINT ((MPI_Datatype)0x4c000843)
#define MPI_OFFSET ((MPI_Datatype)0x4c000844)
#define MPI_COUNT ((MPI_Datatype)0x4c000845)
/* Half precision (C's _Float16, IEEE binary16) and bfloat16 (the upper half of a float), MPICH's
 * extensions, for the tensors of training stacks (PyTorch's MPI backend looks for MPIX_C_FLOAT16). */
#define MPIX_C_FLOAT16 ((MPI_Datatype)0x4c000246)
#define MPIX_BFLOAT16 ((MPI_Datatype)0x4c00024c)

#define MPI_CXX_BOOL ((MPI_Datatype)0x4c000133)
#define MPI_CXX_FLOAT_COMPLEX ((MPI_Datatype)0x4c000834)
#define MPI_CXX_DOUBLE_COMPLEX ((MPI_Datatype)0x4c001035)
#define MPI_CXX_LONG_DOUBLE_COMPLEX ((MPI_Datatype)0x4c002036)

/* The {value, index} pairs of MPI_MAXLOC and MPI_MINLOC, laid out as struct { T value; int index; }. */
#define MPI_FLOAT_INT ((MPI_Datatype)0x8c000000)
#define MPI_DOUBLE_INT ((MPI_Datatype)0x8c000001)
#define MPI_LONG_INT ((MPI_Datatype)0x8c000002)
#define MPI_SHORT_INT ((MPI_Datatype)0x8c000003)
#define MPI_LONG_DOUBLE_INT ((MPI_Datatype)0x8c000004)
#define MPI_2INT ((MPI_Datatype)0x4c000816)

/* ---- predefined datatypes: Fortran (for C programs that describe Fortran data; mpi4py names them) - */

#define MPI_CHARACTER ((MPI_Datatype)0x4c00011a)
#define MPI_LOGICAL ((MPI_Datatype)0x4c00041d)
#define MPI_INTEGER ((MPI_Datatype)0x4c00041b)
#define MPI_REAL ((MPI_Datatype)0x4c00041c)
#define MPI_DOUBLE_PRECISION ((MPI_Datatype)0x4c00081f)
#define MPI_COMPLEX ((MPI_Datatype)0x4c00081e)
#define MPI_DOUBLE_COMPLEX ((MPI_Datatype)0x4c001022)
#define MPI_2INTEGER ((MPI_Datatype)0x4c000820)
#define MPI_2REAL ((MPI_Datatype)0x4c000821)
#define MPI_2DOUBLE_PRECISION ((MPI_Datatype)0x4c001023)
#define MPI_REAL4 ((MPI_Datatype)0x4c000427)
#define MPI_REAL8 ((MPI_Datatype)0x4c000829)
#define MPI_REAL16 ((MPI_Datatype)0x4c00102b)
#define MPI_COMPLEX8 ((MPI_Datatype)0x4c000828)
#define MPI_COMPLEX16 ((MPI_Datatype)0x4c00102a)
#define MPI_COMPLEX32 ((MPI_Datatype)0x4c00202c)
#define MPI_INTEGER1 ((MPI_Datatype)0x4c00012d)
#define MPI_INTEGER2 ((MPI_Datatype)0x4c00022f)
#define MPI_INTEGER4 ((MPI_Datatype)0x4c000430)
#define MPI_INTEGER8 ((MPI_Datatype)0x4c000831)
#define MPI_INTEGER16 MPI_DATATYPE_NULL
/* Optional Fortran types that MPICH's header names too (MPI_REAL2: half precision). */
#define MPI_REAL2 ((MPI_Datatype)0x4c000226)
#define MPI_COMPLEX4 ((MPI_Datatype)0x4c00042e)
#define MPI_LOGICAL1 ((MPI_Datatype)0x4c000147)
#define MPI_LOGICAL2 ((MPI_Datatype)0x4c000248)
#define MPI_LOGICAL4 ((MPI_Datatype)0x4c000449)
#define MPI_LOGICAL8 ((MPI_Datatype)0x4c00084a)
#define MPI_LOGICAL16 ((MPI_Datatype)0x4c00104b)

#define MPI_TYPECLASS_REAL 1
#define MPI_TYPECLASS_INTEGER 2
#define MPI_TYPECLASS_COMPLEX 3

/* How a datatype was built (MPI_Type_get_envelope). */
#define MPI_COMBINER_NAMED 1
#define MPI_COMBINER_DUP 2
#define MPI_COMBINER_CONTIGUOUS 3
#define MPI_COMBINER_VECTOR 4
#define MPI_COMBINER_HVECTOR_INTEGER 5
#define MPI_COMBINER_HVECTOR 6
#define MPI_COMBINER_INDEXED 7
#define MPI_COMBINER_HINDEXED_INTEGER 8
#define MPI_COMBINER_HINDEXED 9
#define MPI_COMBINER_INDEXED_BLOCK 10
#define MPI_COMBINER_STRUCT_INTEGER 11
#define MPI_COMBINER_STRUCT 12
#define MPI_COMBINER_SUBARRAY 13
#define MPI_COMBINER_DARRAY 14
#define MPI_COMBINER_F90_REAL 15
#define MPI_COMBINER_F90_COMPLEX 16
#define MPI_COMBINER_F90_INTEGER 17
#define MPI_COMBINER_RESIZED 18
#define MPI_COMBINER_HINDEXED_BLOCK 19
#define MPI_COMBINER_VALUE_INDEX 20 /* MPI 4.1; MPI_Type_get_value_index returns predefined types only */

#define MPI_ORDER_C 56
#define MPI_ORDER_FORTRAN 57
#define MPI_DISTRIBUTE_BLOCK 121
#define MPI_DISTRIBUTE_CYCLIC 122
#define MPI_DISTRIBUTE_NONE 123
#define MPI_DISTRIBUTE_DFLT_DARG (-49767)

/* ---- predefined reduction operations ---------------------------------------------------------- */

#define MPI_MAX ((MPI_Op)0x58000001)
#define MPI_MIN ((MPI_Op)0x58000002)
#define MPI_SUM ((MPI_Op)0x58000003)
#define MPI_PROD ((MPI_Op)0x58000004)
#define MPI_LAND ((MPI_Op)0x58000005)
#define MPI_BAND ((MPI_Op)0x58000006)
#define MPI_LOR ((MPI_Op)0x58000007)
#define MPI_BOR ((MPI_Op)0x58000008)
#define MPI_LXOR ((MPI_Op)0x58000009)
#define MPI_BXOR ((MPI_Op)0x5800000a)
#define MPI_MINLOC ((MPI_Op)0x5800000b)
#define MPI_MAXLOC ((MPI_Op)0x5800000c)
#define MPI_REPLACE ((MPI_Op)0x5800000d)
#define MPI_NO_OP ((MPI_Op)0x5800000e)

/* ---- special values --------------------------------------------------------------------------- */

#define MPI_PROC_NULL (-1)
#define MPI_ANY_SOURCE (-2)
#define MPI_ROOT (-3)
#define MPI_ANY_TAG (-1)
#define MPI_UNDEFINED (-32766)
#define MPI_KEYVAL_INVALID 0x24000000

#define MPI_BOTTOM ((void *)0)
#define MPI_IN_PLACE ((void *)-1)
/* MPI 4.1: attached as a buffer, the library allocates each buffered message's room (MPICH's value). */
#define MPI_BUFFER_AUTOMATIC ((void *)-2)
#define MPI_STATUS_IGNORE ((MPI_Status *)1)
#define MPI_STATUSES_IGNORE ((MPI_Status *)1)
#define MPI_ERRCODES_IGNORE ((int *)0)
#define MPI_ARGV_NULL ((char **)0)
#define MPI_ARGVS_NULL ((char ***)0)

/* The most a buffered send adds to its message in the attached buffer. */
#define MPI_BSEND_OVERHEAD 96

/* Results of MPI_Comm_compare and MPI_Group_compare. */
#define MPI_IDENT 0
#define MPI_CONGRUENT 1
#define MPI_SIMILAR 2
#define MPI_UNEQUAL 3

/* Topologies (MPI_Topo_test). */
#define MPI_GRAPH 1
#define MPI_CART 2
#define MPI_DIST_GRAPH 3

#define MPI_COMM_TYPE_SHARED 1
#define MPI_COMM_TYPE_HW_GUIDED 2
#define MPI_COMM_TYPE_HW_UNGUIDED 3
#define MPI_COMM_TYPE_RESOURCE_GUIDED 4 /* MPI 4.1; MPICH 4.1's value */

#define MPI_THREAD_SINGLE 0
#define MPI_THREAD_FUNNELED 1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE 3

/* Predefined attributes of MPI_COMM_WORLD (MPI_Comm_get_attr). */
#define MPI_TAG_UB 0x64400001
#define MPI_HOST 0x64400003
#define MPI_IO 0x64400005
#define MPI_WTIME_IS_GLOBAL 0x64400007
#define MPI_UNIVERSE_SIZE 0x64400009
#define MPI_LASTUSEDCODE 0x6440000b
#define MPI_APPNUM 0x6440000d

/* String lengths, each counting the terminating NUL. */
#define MPI_MAX_PROCESSOR_NAME 128
#define MPI_MAX_LIBRARY_VERSION_STRING 8192
#define MPI_MAX_ERROR_STRING 512
#define MPI_MAX_PORT_NAME 256
#define MPI_MAX_OBJECT_NAME 128
#define MPI_MAX_INFO_KEY 255
#define MPI_MAX_PSET_NAME_LEN 256
#define MPI_MAX_STRINGTAG_LEN 256
#define MPI_MAX_INFO_VAL 1024

/* ---- error classes (every error code Axon returns is its class) ------------------------------- */

#define MPI_SUCCESS 0
#define MPI_ERR_BUFFER 1
#define MPI_ERR_COUNT 2
#define MPI_ERR_TYPE 3
#define MPI_ERR_TAG 4
#define MPI_ERR_COMM 5
#define MPI_ERR_RANK 6
#define MPI_ERR_ROOT 7
#define MPI_ERR_GROUP 8
#define MPI_ERR_OP 9
#define MPI_ERR_TOPOLOGY 10
#define MPI_ERR_DIMS 11
#define MPI_ERR_ARG 12
#define MPI_ERR_UNKNOWN 13
#define MPI_ERR_TRUNCATE 14
#define MPI_ERR_OTHER 15
#define MPI_ERR_INTERN 16
#define MPI_ERR_IN_STATUS 17
#define MPI_ERR_PENDING 18
#define MPI_ERR_REQUEST 19
#define MPI_ERR_ACCESS 20
#define MPI_ERR_AMODE 21
#define MPI_ERR_BAD_FILE 22
#define MPI_ERR_CONVERSION 23
#define MPI_ERR_DUP_DATAREP 24
#define MPI_ERR_FILE_EXISTS 25
#define MPI_ERR_FILE_IN_USE 26
#define MPI_ERR_FILE 27
#define MPI_ERR_INFO 28
#define MPI_ERR_INFO_KEY 29
#define MPI_ERR_INFO_VALUE 30
#define MPI_ERR_INFO_NOKEY 31
#define MPI_ERR_IO 32
#define MPI_ERR_NAME 33
#define MPI_ERR_NO_MEM 34
#define MPI_ERR_NOT_SAME 35
#define MPI_ERR_NO_SPACE 36
#define MPI_ERR_NO_SUCH_FILE 37
#define MPI_ERR_PORT 38
#define MPI_ERR_QUOTA 39
#define MPI_ERR_READ_ONLY 40
#define MPI_ERR_SERVICE 41
#define MPI_ERR_SPAWN 42
#define MPI_ERR_UNSUPPORTED_DATAREP 43
#define MPI_ERR_UNSUPPORTED_OPERATION 44
#define MPI_ERR_WIN 45
#define MPI_ERR_BASE 46
#define MPI_ERR_LOCKTYPE 47
#define MPI_ERR_KEYVAL 48
#define MPI_ERR_RMA_CONFLICT 49
#define MPI_ERR_RMA_SYNC 50
#define MPI_ERR_SIZE 51
#define MPI_ERR_DISP 52
#define MPI_ERR_ASSERT 53
#define MPI_ERR_RMA_RANGE 55
#define MPI_ERR_RMA_ATTACH 56
#define MPI_ERR_RMA_SHARED 57
#define MPI_ERR_RMA_FLAVOR 58
/* The tools interface's classes (MPI_T_*, mpi/tool/axon_mpi_tool.c), at MPICH's values. */
#define MPI_T_ERR_MEMORY 59
#define MPI_T_ERR_NOT_INITIALIZED 60
#define MPI_T_ERR_CANNOT_INIT 61
#define MPI_T_ERR_INVALID_INDEX 62
#define MPI_T_ERR_INVALID_ITEM 63
#define MPI_T_ERR_INVALID_HANDLE 64
#define MPI_T_ERR_OUT_OF_HANDLES 65
#define MPI_T_ERR_OUT_OF_SESSIONS 66
#define MPI_T_ERR_INVALID_SESSION 67
#define MPI_T_ERR_CVAR_SET_NOT_NOW 68
#define MPI_T_ERR_CVAR_SET_NEVER 69
#define MPI_T_ERR_PVAR_NO_STARTSTOP 70
#define MPI_T_ERR_PVAR_NO_WRITE 71
#define MPI_T_ERR_PVAR_NO_ATOMIC 72
#define MPI_T_ERR_INVALID_NAME 73
#define MPI_T_ERR_INVALID 74
#define MPI_ERR_SESSION 75
#define MPI_ERR_PROC_ABORTED 76
#define MPI_ERR_VALUE_TOO_LARGE 77
#define MPI_T_ERR_NOT_SUPPORTED 78
#define MPI_T_ERR_NOT_ACCESSIBLE 79 /* MPI 4.0 */
#define MPI_ERR_ERRHANDLER 80       /* MPI 4.1: an invalid error handler */
#define MPI_ERR_LASTCODE 0x3fffffff

/* ---- callback types --------------------------------------------------------------------------- */

typedef void(MPI_Comm_errhandler_function)(MPI_Comm *, int *, ...);
typedef MPI_Comm_errhandler_function MPI_Comm_errhandler_fn;
typedef void(MPI_Handler_function)(MPI_Comm *, int *, ...);
typedef void(MPI_User_function)(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype);
typedef int(MPI_Comm_copy_attr_function)(MPI_Comm oldcomm, int keyval, void *extra_state, void *attribute_val_in,
                                         void *attribute_val_out, int *flag);
typedef int(MPI_Comm_delete_attr_function)(MPI_Comm comm, int keyval, void *attribute_val, void *extra_state);
typedef int(MPI_Type_copy_attr_function)(MPI_Datatype oldtype, int keyval, void *extra_state,
                                         void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int(MPI_Type_delete_attr_function)(MPI_Datatype datatype, int keyval, void *attribute_val,
                                           void *extra_state);
typedef int(MPI_Grequest_query_function)(void *extra_state, MPI_Status *status);
typedef int(MPI_Grequest_free_function)(void *extra_state);
typedef int(MPI_Grequest_cancel_function)(void *extra_state, int complete);
typedef int(MPI_Copy_function)(MPI_Comm, int, void *, void *, void *, int *);
typedef int(MPI_Delete_function)(MPI_Comm, int, void *, void *);

/* The predefined attribute callbacks. The copy-by-value one is a library function under MPICH's
 * symbol name, so programs built against either header find it. */
int MPIR_Dup_fn(MPI_Comm oldcomm, int keyval, void *extra_state, void *attribute_val_in, void *attribute_val_out,
                int *flag);
#define MPI_NULL_COPY_FN ((MPI_Copy_function *)0)
#define MPI_NULL_DELETE_FN ((MPI_Delete_function *)0)
#define MPI_DUP_FN MPIR_Dup_fn
#define MPI_COMM_NULL_COPY_FN ((MPI_Comm_copy_attr_function *)0)
#define MPI_COMM_NULL_DELETE_FN ((MPI_Comm_delete_attr_function *)0)
#define MPI_COMM_DUP_FN ((MPI_Comm_copy_attr_function *)MPI_DUP_FN)
#define MPI_TYPE_NULL_COPY_FN ((MPI_Type_copy_attr_function *)0)
#define MPI_TYPE_NULL_DELETE_FN ((MPI_Type_delete_attr_function *)0)
#define MPI_TYPE_DUP_FN ((MPI_Type_copy_attr_function *)MPI_DUP_FN)

/* Callback types of the MPI 4 interfaces declared below (MPI-IO is not implemented; the error handlers
 * of windows, files and sessions are of the same shape as a communicator's). */
typedef void(MPI_User_function_c)(void *invec, void *inoutvec, MPI_Count *len, MPI_Datatype *datatype);
typedef void(MPI_Win_errhandler_function)(MPI_Win *, int *, ...);
typedef void(MPI_File_errhandler_function)(MPI_File *, int *, ...);
typedef void(MPI_Session_errhandler_function)(MPI_Session *, int *, ...);
typedef int(MPI_Win_copy_attr_function)(MPI_Win oldwin, int win_keyval, void *extra_state, void *attribute_val_in,
                                        void *attribute_val_out, int *flag);
typedef int(MPI_Win_delete_attr_function)(MPI_Win win, int win_keyval, void *attribute_val, void *extra_state);
/* The window keyval callbacks' predefined values, as in MPICH's mpi.h. */
#define MPI_WIN_NULL_COPY_FN ((MPI_Win_copy_attr_function *)0)
#define MPI_WIN_NULL_DELETE_FN ((MPI_Win_delete_attr_function *)0)
#define MPI_WIN_DUP_FN ((MPI_Win_copy_attr_function *)MPI_DUP_FN)
typedef int(MPI_Datarep_extent_function)(MPI_Datatype datatype, MPI_Aint *extent, void *extra_state);
typedef int(MPI_Datarep_conversion_function)(void *userbuf, MPI_Datatype datatype, int count, void *filebuf,
                                             MPI_Offset position, void *extra_state);
typedef int(MPI_Datarep_conversion_function_c)(void *userbuf, MPI_Datatype datatype, MPI_Count count,
                                               void *filebuf, MPI_Offset position, void *extra_state);

/* ---- the tools interface (MPI_T), as MPICH declares it -------------------------------------------- */

/* Handles are pointers to structures the library keeps to itself; the tags are MPICH's, so that C++
 * mangles them alike. */
struct MPIR_T_enum_s;
struct MPIR_T_cvar_handle_s;
struct MPIR_T_pvar_handle_s;
struct MPIR_T_pvar_session_s;
struct MPIR_T_event_registration_s;
struct MPIR_T_event_instance_s;
typedef struct MPIR_T_enum_s *MPI_T_enum;
typedef struct MPIR_T_cvar_handle_s *MPI_T_cvar_handle;
typedef struct MPIR_T_pvar_handle_s *MPI_T_pvar_handle;
typedef struct MPIR_T_pvar_session_s *MPI_T_pvar_session;
typedef struct MPIR_T_event_registration_s *MPI_T_event_registration;
typedef struct MPIR_T_event_instance_s *MPI_T_event_instance;

/* An address the library exports, as MPICH's does (no const in front: the prototypes take a handle). */
extern struct MPIR_T_pvar_handle_s *const MPI_T_PVAR_ALL_HANDLES;

#define MPI_T_ENUM_NULL ((MPI_T_enum)0)
#define MPI_T_CVAR_HANDLE_NULL ((MPI_T_cvar_handle)0)
#define MPI_T_PVAR_HANDLE_NULL ((MPI_T_pvar_handle)0)
#define MPI_T_PVAR_SESSION_NULL ((MPI_T_pvar_session)0)

/* The values are MPICH's: the standard asks only for their order; MPICH shifts them off 0. */
typedef enum MPIR_T_verbosity_t {
    MPI_T_VERBOSITY_INVALID = 0,
    MPI_T_VERBOSITY_USER_BASIC = 221,
    MPI_T_VERBOSITY_USER_DETAIL = 222,
    MPI_T_VERBOSITY_USER_ALL = 223,
    MPI_T_VERBOSITY_TUNER_BASIC = 224,
    MPI_T_VERBOSITY_TUNER_DETAIL = 225,
    MPI_T_VERBOSITY_TUNER_ALL = 226,
    MPI_T_VERBOSITY_MPIDEV_BASIC = 227,
    MPI_T_VERBOSITY_MPIDEV_DETAIL = 228,
    MPI_T_VERBOSITY_MPIDEV_ALL = 229
} MPIR_T_verbosity_t;

typedef enum MPIR_T_bind_t {
    MPI_T_BIND_INVALID = 0,
    MPI_T_BIND_NO_OBJECT = 9700,
    MPI_T_BIND_MPI_COMM = 9701,
    MPI_T_BIND_MPI_DATATYPE = 9702,
    MPI_T_BIND_MPI_ERRHANDLER = 9703,
    MPI_T_BIND_MPI_FILE = 9704,
    MPI_T_BIND_MPI_GROUP = 9705,
    MPI_T_BIND_MPI_OP = 9706,
    MPI_T_BIND_MPI_REQUEST = 9707,
    MPI_T_BIND_MPI_WIN = 9708,
    MPI_T_BIND_MPI_MESSAGE = 9709,
    MPI_T_BIND_MPI_INFO = 9710,
    MPI_T_BIND_MPI_SESSION = 9711
} MPIR_T_bind_t;

typedef enum MPIR_T_scope_t {
    MPI_T_SCOPE_INVALID = 0,
    MPI_T_SCOPE_CONSTANT = 60438,
    MPI_T_SCOPE_READONLY = 60439,
    MPI_T_SCOPE_LOCAL = 60440,
    MPI_T_SCOPE_GROUP = 60441,
    MPI_T_SCOPE_GROUP_EQ = 60442,
    MPI_T_SCOPE_ALL = 60443,
    MPI_T_SCOPE_ALL_EQ = 60444
} MPIR_T_scope_t;

typedef enum MPIR_T_pvar_class_t {
    MPI_T_PVAR_CLASS_INVALID = 0,
    MPIR_T_PVAR_CLASS_FIRST = 240,
    MPI_T_PVAR_CLASS_STATE = 240,
    MPI_T_PVAR_CLASS_LEVEL = 241,
    MPI_T_PVAR_CLASS_SIZE = 242,
    MPI_T_PVAR_CLASS_PERCENTAGE = 243,
    MPI_T_PVAR_CLASS_HIGHWATERMARK = 244,
    MPI_T_PVAR_CLASS_LOWWATERMARK = 245,
    MPI_T_PVAR_CLASS_COUNTER = 246,
    MPI_T_PVAR_CLASS_AGGREGATE = 247,
    MPI_T_PVAR_CLASS_TIMER = 248,
    MPI_T_PVAR_CLASS_GENERIC = 249,
    MPIR_T_PVAR_CLASS_LAST = 250,
    MPIR_T_PVAR_CLASS_NUMBER = 10
} MPIR_T_pvar_class_t;

typedef enum MPI_T_cb_safety {
    MPI_T_CB_REQUIRE_NONE = 0,
    MPI_T_CB_REQUIRE_MPI_RESTRICTED = 1,
    MPI_T_CB_REQUIRE_THREAD_SAFE = 2,
    MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE = 3
} MPI_T_cb_safety;

typedef enum MPI_T_source_order {
    MPI_T_SOURCE_ORDERED = 0,
    MPI_T_SOURCE_UNORDERED = 1
} MPI_T_source_order;

typedef void(MPI_T_event_cb_function)(MPI_T_event_instance event_instance, MPI_T_event_registration event_registration,
                                      MPI_T_cb_safety cb_safety, void *user_data);
typedef void(MPI_T_event_free_cb_function)(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
                                           void *user_data);
typedef void(MPI_T_event_dropped_cb_function)(MPI_Count count, MPI_T_event_registration event_registration,
                                              int source_index, MPI_T_cb_safety cb_safety, void *user_data);

/* ---- handle conversion to and from Fortran: the same int, as in the MPICH ABI ------------------ */

#define MPI_Comm_c2f(comm) ((MPI_Fint)(comm))
#define MPI_Comm_f2c(comm) ((MPI_Comm)(comm))
#define MPI_Type_c2f(datatype) ((MPI_Fint)(datatype))
#define MPI_Type_f2c(datatype) ((MPI_Datatype)(datatype))
#define MPI_Group_c2f(group) ((MPI_Fint)(group))
#define MPI_Group_f2c(group) ((MPI_Group)(group))
#define MPI_Info_c2f(info) ((MPI_Fint)(info))
#define MPI_Info_f2c(info) ((MPI_Info)(info))
#define MPI_Request_c2f(request) ((MPI_Fint)(request))
#define MPI_Request_f2c(request) ((MPI_Request)(request))
#define MPI_Op_c2f(op) ((MPI_Fint)(op))
#define MPI_Op_f2c(op) ((MPI_Op)(op))
#define MPI_Errhandler_c2f(errhandler) ((MPI_Fint)(errhandler))
#define MPI_Errhandler_f2c(errhandler) ((MPI_Errhandler)(errhandler))
#define MPI_Message_c2f(msg) ((MPI_Fint)(msg))
#define MPI_Message_f2c(msg) ((MPI_Message)(msg))
#define MPI_Win_c2f(win) ((MPI_Fint)(win))
#define MPI_Win_f2c(win) ((MPI_Win)(win))

/* ---- functions -------------------------------------------------------------------------------- */

/* AXON_MPI_API(ret, Name, (params)) declares MPI_Name and its profiling twin PMPI_Name. */
#define AXON_MPI_API(ret, name, params) \
    ret MPI_##name params;              \
    ret PMPI_##name params

/* Environment */
AXON_MPI_API(int, Init, (int *argc, char ***argv));
AXON_MPI_API(int, Init_thread, (int *argc, char ***argv, int required, int *provided));
AXON_MPI_API(int, Initialized, (int *flag));
AXON_MPI_API(int, Finalize, (void));
AXON_MPI_API(int, Finalized, (int *flag));
AXON_MPI_API(int, Query_thread, (int *provided));
AXON_MPI_API(int, Is_thread_main, (int *flag));
AXON_MPI_API(int, Abort, (MPI_Comm comm, int errorcode));
AXON_MPI_API(double, Wtime, (void));
AXON_MPI_API(double, Wtick, (void));
AXON_MPI_API(int, Get_version, (int *version, int *subversion));
AXON_MPI_API(int, Get_library_version, (char *version, int *resultlen));
AXON_MPI_API(int, Get_processor_name, (char *name, int *resultlen));
AXON_MPI_API(int, Alloc_mem, (MPI_Aint size, MPI_Info info, void *baseptr));
AXON_MPI_API(int, Free_mem, (void *base));
/* Accepted at every level and ignored: Axon has no profiling levels of its own. */
AXON_MPI_API(int, Pcontrol, (const int level, ...));

/* Errors */
AXON_MPI_API(int, Comm_create_errhandler, (MPI_Comm_errhandler_function * function, MPI_Errhandler *errhandler));
AXON_MPI_API(int, Comm_set_errhandler, (MPI_Comm comm, MPI_Errhandler errhandler));
AXON_MPI_API(int, Comm_get_errhandler, (MPI_Comm comm, MPI_Errhandler *errhandler));
AXON_MPI_API(int, Comm_call_errhandler, (MPI_Comm comm, int errorcode));
AXON_MPI_API(int, Errhandler_free, (MPI_Errhandler * errhandler));
AXON_MPI_API(int, Error_string, (int errorcode, char *string, int *resultlen));
AXON_MPI_API(int, Error_class, (int errorcode, int *errorclass));
AXON_MPI_API(int, Add_error_class, (int *errorclass));
AXON_MPI_API(int, Add_error_code, (int errorclass, int *errorcode));
AXON_MPI_API(int, Add_error_string, (int errorcode, const char *string));

/* Communicators: queries */
AXON_MPI_API(int, Comm_rank, (MPI_Comm comm, int *rank));
AXON_MPI_API(int, Comm_size, (MPI_Comm comm, int *size));

/* Point-to-point */
AXON_MPI_API(int, Send, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm));
AXON_MPI_API(int, Ssend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm));
AXON_MPI_API(int, Rsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm));
AXON_MPI_API(int, Isend,
             (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
              MPI_Request *request));
AXON_MPI_API(int, Issend,
             (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
              MPI_Request *request));
AXON_MPI_API(int, Irsend,
             (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
              MPI_Request *request));
AXON_MPI_API(int, Recv,
             (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status));
AXON_MPI_API(int, Irecv,
             (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Request *request));
AXON_MPI_API(int, Sendrecv,
             (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
              int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status));
AXON_MPI_API(int, Isendrecv,
             (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
              int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Isendrecv_replace,
             (void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag,
              MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Bsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm));
AXON_MPI_API(int, Ibsend,
             (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
              MPI_Request *request));
AXON_MPI_API(int, Buffer_attach, (void *buffer, int size));
AXON_MPI_API(int, Buffer_detach, (void *buffer_addr, int *size));
AXON_MPI_API(int, Send_init,
             (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
              MPI_Request *request));
AXON_MPI_API(int, Ssend_init,
             (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
              MPI_Request *request));
AXON_MPI_API(int, Rsend_init,
             (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
              MPI_Request *request));
AXON_MPI_API(int, Bsend_init,
             (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
              MPI_Request *request));
AXON_MPI_API(int, Recv_init,
             (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Start, (MPI_Request * request));
AXON_MPI_API(int, Startall, (int count, MPI_Request *array_of_requests));
AXON_MPI_API(int, Sendrecv_replace,
             (void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag,
              MPI_Comm comm, MPI_Status *status));
AXON_MPI_API(int, Probe, (int source, int tag, MPI_Comm comm, MPI_Status *status));
AXON_MPI_API(int, Iprobe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status));
AXON_MPI_API(int, Mprobe, (int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status));
AXON_MPI_API(int, Improbe,
             (int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status));
AXON_MPI_API(int, Mrecv, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status));
AXON_MPI_API(int, Imrecv,
             (void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request));

/* Requests and statuses */
AXON_MPI_API(int, Wait, (MPI_Request * request, MPI_Status *status));
AXON_MPI_API(int, Test, (MPI_Request * request, int *flag, MPI_Status *status));
AXON_MPI_API(int, Waitall, (int count, MPI_Request *array_of_requests, MPI_Status *array_of_statuses));
AXON_MPI_API(int, Testall,
             (int count, MPI_Request *array_of_requests, int *flag, MPI_Status *array_of_statuses));
AXON_MPI_API(int, Waitany, (int count, MPI_Request *array_of_requests, int *index, MPI_Status *status));
AXON_MPI_API(int, Testany,
             (int count, MPI_Request *array_of_requests, int *index, int *flag, MPI_Status *status));
AXON_MPI_API(int, Waitsome,
             (int incount, MPI_Request *array_of_requests, int *outcount, int *array_of_indices,
              MPI_Status *array_of_statuses));
AXON_MPI_API(int, Testsome,
             (int incount, MPI_Request *array_of_requests, int *outcount, int *array_of_indices,
              MPI_Status *array_of_statuses));
AXON_MPI_API(int, Request_free, (MPI_Request * request));
AXON_MPI_API(int, Request_get_status, (MPI_Request request, int *flag, MPI_Status *status));
AXON_MPI_API(int, Cancel, (MPI_Request * request));
AXON_MPI_API(int, Test_cancelled, (const MPI_Status *status, int *flag));
AXON_MPI_API(int, Get_count, (const MPI_Status *status, MPI_Datatype datatype, int *count));
AXON_MPI_API(int, Status_set_elements, (MPI_Status * status, MPI_Datatype datatype, int count));
AXON_MPI_API(int, Status_set_elements_x, (MPI_Status * status, MPI_Datatype datatype, MPI_Count count));
AXON_MPI_API(int, Status_set_cancelled, (MPI_Status * status, int flag));
AXON_MPI_API(int, Grequest_start,
             (MPI_Grequest_query_function * query_fn, MPI_Grequest_free_function *free_fn,
              MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request));
AXON_MPI_API(int, Grequest_complete, (MPI_Request request));

/* Datatypes */
AXON_MPI_API(int, Type_contiguous, (int count, MPI_Datatype oldtype, MPI_Datatype *newtype));
AXON_MPI_API(int, Type_vector,
             (int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype *newtype));
AXON_MPI_API(int, Type_create_hvector,
             (int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype *newtype));
AXON_MPI_API(int, Type_indexed,
             (int count, const int array_of_blocklengths[], const int array_of_displacements[], MPI_Datatype oldtype,
              MPI_Datatype *newtype));
AXON_MPI_API(int, Type_create_hindexed,
             (int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
              MPI_Datatype oldtype, MPI_Datatype *newtype));
AXON_MPI_API(int, Type_create_indexed_block,
             (int count, int blocklength, const int array_of_displacements[], MPI_Datatype oldtype,
              MPI_Datatype *newtype));
AXON_MPI_API(int, Type_create_hindexed_block,
             (int count, int blocklength, const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
              MPI_Datatype *newtype));
AXON_MPI_API(int, Type_create_struct,
             (int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
              const MPI_Datatype array_of_types[], MPI_Datatype *newtype));
AXON_MPI_API(int, Type_create_resized, (MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype));
AXON_MPI_API(int, Type_dup, (MPI_Datatype oldtype, MPI_Datatype *newtype));
AXON_MPI_API(int, Type_create_subarray,
             (int ndims, const int array_of_sizes[], const int array_of_subsizes[], const int array_of_starts[],
              int order, MPI_Datatype oldtype, MPI_Datatype *newtype));
AXON_MPI_API(int, Type_create_darray,
             (int size, int rank, int ndims, const int array_of_gsizes[], const int array_of_distribs[],
              const int array_of_dargs[], const int array_of_psizes[], int order, MPI_Datatype oldtype,
              MPI_Datatype *newtype));
AXON_MPI_API(int, Type_match_size, (int typeclass, int size, MPI_Datatype *datatype));
AXON_MPI_API(int, Type_create_keyval,
             (MPI_Type_copy_attr_function * type_copy_attr_fn, MPI_Type_delete_attr_function *type_delete_attr_fn,
              int *type_keyval, void *extra_state));
AXON_MPI_API(int, Type_free_keyval, (int *type_keyval));
AXON_MPI_API(int, Type_set_attr, (MPI_Datatype datatype, int type_keyval, void *attribute_val));
AXON_MPI_API(int, Type_get_attr, (MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag));
AXON_MPI_API(int, Type_delete_attr, (MPI_Datatype datatype, int type_keyval));
AXON_MPI_API(int, Type_commit, (MPI_Datatype * datatype));
AXON_MPI_API(int, Type_free, (MPI_Datatype * datatype));
AXON_MPI_API(int, Type_size, (MPI_Datatype datatype, int *size));
AXON_MPI_API(int, Type_size_x, (MPI_Datatype datatype, MPI_Count *size));
AXON_MPI_API(int, Type_get_extent, (MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent));
AXON_MPI_API(int, Type_get_extent_x, (MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent));
AXON_MPI_API(int, Type_get_true_extent, (MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent));
AXON_MPI_API(int, Type_get_true_extent_x, (MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent));
AXON_MPI_API(int, Type_set_name, (MPI_Datatype datatype, const char *type_name));
AXON_MPI_API(int, Type_get_name, (MPI_Datatype datatype, char *type_name, int *resultlen));
AXON_MPI_API(int, Type_get_envelope,
             (MPI_Datatype datatype, int *num_integers, int *num_addresses, int *num_datatypes, int *combiner));
AXON_MPI_API(int, Type_get_contents,
             (MPI_Datatype datatype, int max_integers, int max_addresses, int max_datatypes, int array_of_integers[],
              MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[]));
AXON_MPI_API(int, Pack,
             (const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize, int *position,
              MPI_Comm comm));
AXON_MPI_API(int, Unpack,
             (const void *inbuf, int insize, int *position, void *outbuf, int outcount, MPI_Datatype datatype,
              MPI_Comm comm));
AXON_MPI_API(int, Pack_size, (int incount, MPI_Datatype datatype, MPI_Comm comm, int *size));
AXON_MPI_API(int, Get_address, (const void *location, MPI_Aint *address));
/* MPI-1 functions that MPI-3 removed, still in MPICH's ABI (mpi/axon_mpi_removed_mpi1.c) */
AXON_MPI_API(int, Address, (void *location, MPI_Aint *address));
AXON_MPI_API(int, Type_extent, (MPI_Datatype datatype, MPI_Aint *extent));
AXON_MPI_API(int, Type_lb, (MPI_Datatype datatype, MPI_Aint *displacement));
AXON_MPI_API(int, Type_ub, (MPI_Datatype datatype, MPI_Aint *displacement));
AXON_MPI_API(int, Type_hindexed, (int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype));
AXON_MPI_API(int, Type_hvector, (int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype *newtype));
AXON_MPI_API(int, Type_struct, (int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[], MPI_Datatype array_of_types[], MPI_Datatype *newtype));
AXON_MPI_API(int, Errhandler_create, (MPI_Handler_function *function, MPI_Errhandler *errhandler));
AXON_MPI_API(int, Errhandler_get, (MPI_Comm comm, MPI_Errhandler *errhandler));
AXON_MPI_API(int, Errhandler_set, (MPI_Comm comm, MPI_Errhandler errhandler));
AXON_MPI_API(int, Get_elements, (const MPI_Status *status, MPI_Datatype datatype, int *count));
AXON_MPI_API(int, Get_elements_x, (const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count));
AXON_MPI_API(MPI_Aint, Aint_add, (MPI_Aint base, MPI_Aint disp));
AXON_MPI_API(MPI_Aint, Aint_diff, (MPI_Aint addr1, MPI_Aint addr2));

/* Communicators, groups, attributes and info objects */
AXON_MPI_API(int, Comm_dup, (MPI_Comm comm, MPI_Comm *newcomm));
AXON_MPI_API(int, Comm_idup, (MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request));
AXON_MPI_API(int, Comm_idup_with_info, (MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request));
AXON_MPI_API(int, Comm_dup_with_info, (MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm));
AXON_MPI_API(int, Comm_split, (MPI_Comm comm, int color, int key, MPI_Comm *newcomm));
AXON_MPI_API(int, Comm_split_type, (MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm));
AXON_MPI_API(int, Comm_create, (MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm));
AXON_MPI_API(int, Comm_create_group, (MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm));
AXON_MPI_API(int, Comm_free, (MPI_Comm * comm));
AXON_MPI_API(int, Comm_compare, (MPI_Comm comm1, MPI_Comm comm2, int *result));
AXON_MPI_API(int, Comm_group, (MPI_Comm comm, MPI_Group *group));
AXON_MPI_API(int, Comm_test_inter, (MPI_Comm comm, int *flag));
AXON_MPI_API(int, Comm_get_parent, (MPI_Comm * parent));
AXON_MPI_API(int, Comm_remote_size, (MPI_Comm comm, int *size));
AXON_MPI_API(int, Comm_remote_group, (MPI_Comm comm, MPI_Group *group));
AXON_MPI_API(int, Comm_set_name, (MPI_Comm comm, const char *comm_name));
AXON_MPI_API(int, Comm_get_name, (MPI_Comm comm, char *comm_name, int *resultlen));
AXON_MPI_API(int, Comm_set_info, (MPI_Comm comm, MPI_Info info));
AXON_MPI_API(int, Comm_get_info, (MPI_Comm comm, MPI_Info *info_used));
AXON_MPI_API(int, Intercomm_create,
             (MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader, int tag,
              MPI_Comm *newintercomm));
AXON_MPI_API(int, Intercomm_merge, (MPI_Comm intercomm, int high, MPI_Comm *newintracomm));
AXON_MPI_API(int, Group_size, (MPI_Group group, int *size));
AXON_MPI_API(int, Group_rank, (MPI_Group group, int *rank));
AXON_MPI_API(int, Group_incl, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup));
AXON_MPI_API(int, Group_excl, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup));
AXON_MPI_API(int, Group_range_incl, (MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup));
AXON_MPI_API(int, Group_range_excl, (MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup));
AXON_MPI_API(int, Group_union, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup));
AXON_MPI_API(int, Group_intersection, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup));
AXON_MPI_API(int, Group_difference, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup));
AXON_MPI_API(int, Group_translate_ranks,
             (MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[]));
AXON_MPI_API(int, Group_compare, (MPI_Group group1, MPI_Group group2, int *result));
AXON_MPI_API(int, Group_free, (MPI_Group * group));
AXON_MPI_API(int, Comm_create_keyval,
             (MPI_Comm_copy_attr_function * comm_copy_attr_fn, MPI_Comm_delete_attr_function *comm_delete_attr_fn,
              int *comm_keyval, void *extra_state));
AXON_MPI_API(int, Comm_free_keyval, (int *comm_keyval));
AXON_MPI_API(int, Comm_set_attr, (MPI_Comm comm, int comm_keyval, void *attribute_val));
AXON_MPI_API(int, Comm_get_attr, (MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag));
AXON_MPI_API(int, Comm_delete_attr, (MPI_Comm comm, int comm_keyval));
/* MPI-1's forms of the five above, deprecated, not removed. */
AXON_MPI_API(int, Keyval_create,
             (MPI_Copy_function * copy_fn, MPI_Delete_function *delete_fn, int *keyval, void *extra_state));
AXON_MPI_API(int, Keyval_free, (int *keyval));
AXON_MPI_API(int, Attr_put, (MPI_Comm comm, int keyval, void *attribute_val));
AXON_MPI_API(int, Attr_get, (MPI_Comm comm, int keyval, void *attribute_val, int *flag));
AXON_MPI_API(int, Attr_delete, (MPI_Comm comm, int keyval));
AXON_MPI_API(int, Info_create, (MPI_Info * info));
AXON_MPI_API(int, Info_set, (MPI_Info info, const char *key, const char *value));
AXON_MPI_API(int, Info_get, (MPI_Info info, const char *key, int valuelen, char *value, int *flag));
AXON_MPI_API(int, Info_get_valuelen, (MPI_Info info, const char *key, int *valuelen, int *flag));
AXON_MPI_API(int, Info_get_string, (MPI_Info info, const char *key, int *buflen, char *value, int *flag));
AXON_MPI_API(int, Info_get_nkeys, (MPI_Info info, int *nkeys));
AXON_MPI_API(int, Info_get_nthkey, (MPI_Info info, int n, char *key));
AXON_MPI_API(int, Info_delete, (MPI_Info info, const char *key));
AXON_MPI_API(int, Info_dup, (MPI_Info info, MPI_Info *newinfo));
AXON_MPI_API(int, Info_free, (MPI_Info * info));

/* Reduction operations */
AXON_MPI_API(int, Op_create, (MPI_User_function * user_fn, int commute, MPI_Op *op));
AXON_MPI_API(int, Op_free, (MPI_Op * op));
AXON_MPI_API(int, Op_commutative, (MPI_Op op, int *commute));
AXON_MPI_API(int, Reduce_local, (const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype, MPI_Op op));

/* Collectives */
AXON_MPI_API(int, Barrier, (MPI_Comm comm));
AXON_MPI_API(int, Bcast, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm));
AXON_MPI_API(int, Gather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, int root, MPI_Comm comm));
AXON_MPI_API(int, Gatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                            const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm));
AXON_MPI_API(int, Scatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, int root, MPI_Comm comm));
AXON_MPI_API(int, Scatterv, (const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm));
AXON_MPI_API(int, Allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                              MPI_Datatype recvtype, MPI_Comm comm));
AXON_MPI_API(int, Allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                               const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm));
AXON_MPI_API(int, Alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                             MPI_Datatype recvtype, MPI_Comm comm));
AXON_MPI_API(int, Alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                              void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                              MPI_Comm comm));
AXON_MPI_API(int, Alltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                              const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[],
                              const MPI_Datatype recvtypes[], MPI_Comm comm));
AXON_MPI_API(int, Reduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                           MPI_Comm comm));
AXON_MPI_API(int, Allreduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm));
AXON_MPI_API(int, Reduce_scatter_block, (const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype,
                                         MPI_Op op, MPI_Comm comm));
AXON_MPI_API(int, Reduce_scatter, (const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype,
                                   MPI_Op op, MPI_Comm comm));
AXON_MPI_API(int, Scan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm));
AXON_MPI_API(int, Exscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                           MPI_Comm comm));
AXON_MPI_API(int, Ibarrier, (MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Ibcast, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                           MPI_Request *request));
AXON_MPI_API(int, Igather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Igatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                             const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
                             MPI_Request *request));
AXON_MPI_API(int, Iscatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                             MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Iscatterv, (const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                              void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                              MPI_Request *request));
AXON_MPI_API(int, Iallgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                               int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Iallgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Request *request));
AXON_MPI_API(int, Ialltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                              int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Ialltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                               MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Ialltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                               const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                               const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                               MPI_Request *request));
AXON_MPI_API(int, Ireduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                            MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Iallreduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                               MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Ireduce_scatter_block, (const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype,
                                          MPI_Op op, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Ireduce_scatter, (const void *sendbuf, void *recvbuf, const int recvcounts[],
                                    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Iscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                          MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Iexscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                            MPI_Comm comm, MPI_Request *request));

/* Persistent collectives (MPI-4): inactive until MPI_Start or MPI_Startall */
AXON_MPI_API(int, Barrier_init, (MPI_Comm comm, MPI_Info info, MPI_Request *request));
AXON_MPI_API(int, Bcast_init, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                               MPI_Request *request));
AXON_MPI_API(int, Gather_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                                MPI_Request *request));
AXON_MPI_API(int, Gatherv_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                                 MPI_Comm comm, MPI_Info info, MPI_Request *request));
AXON_MPI_API(int, Scatter_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request));
AXON_MPI_API(int, Scatterv_init, (const void *sendbuf, const int sendcounts[], const int displs[],
                                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                                  MPI_Comm comm, MPI_Info info, MPI_Request *request));
AXON_MPI_API(int, Allgather_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request));
AXON_MPI_API(int, Allgatherv_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                    const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                    MPI_Info info, MPI_Request *request));
AXON_MPI_API(int, Alltoall_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request));
AXON_MPI_API(int, Alltoallv_init, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request));
AXON_MPI_API(int, Alltoallw_init, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                                   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request));
AXON_MPI_API(int, Reduce_init, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                                int root, MPI_Comm comm, MPI_Info info, MPI_Request *request));
AXON_MPI_API(int, Allreduce_init, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                                   MPI_Comm comm, MPI_Info info, MPI_Request *request));
AXON_MPI_API(int, Reduce_scatter_block_init, (const void *sendbuf, void *recvbuf, int recvcount,
                                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                              MPI_Request *request));
AXON_MPI_API(int, Reduce_scatter_init, (const void *sendbuf, void *recvbuf, const int recvcounts[],
                                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                        MPI_Request *request));
AXON_MPI_API(int, Scan_init, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm, MPI_Info info, MPI_Request *request));
AXON_MPI_API(int, Exscan_init, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                                MPI_Comm comm, MPI_Info info, MPI_Request *request));

/* Neighborhood collectives, on Cartesian and distributed-graph communicators */
AXON_MPI_API(int, Neighbor_allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm));
AXON_MPI_API(int, Neighbor_allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                        const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                        MPI_Comm comm));
AXON_MPI_API(int, Neighbor_alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm));
AXON_MPI_API(int, Neighbor_alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                                       MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                       const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm));
AXON_MPI_API(int, Neighbor_alltoallw, (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                       const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                       const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm));
AXON_MPI_API(int, Ineighbor_allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Ineighbor_allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                         const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                         MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Ineighbor_alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Ineighbor_alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                                        MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                        const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                        MPI_Request *request));
AXON_MPI_API(int, Ineighbor_alltoallw, (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                        const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                        const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                        MPI_Request *request));
AXON_MPI_API(int, Neighbor_allgather_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                            MPI_Info info, MPI_Request *request));
AXON_MPI_API(int, Neighbor_allgatherv_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                             void *recvbuf, const int recvcounts[], const int displs[],
                                             MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                             MPI_Request *request));
AXON_MPI_API(int, Neighbor_alltoall_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                           MPI_Request *request));
AXON_MPI_API(int, Neighbor_alltoallv_init, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                                            MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                            MPI_Request *request));
AXON_MPI_API(int, Neighbor_alltoallw_init, (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                            const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                            MPI_Info info, MPI_Request *request));

/* Topologies */
AXON_MPI_API(int, Dims_create, (int nnodes, int ndims, int dims[]));
AXON_MPI_API(int, Cart_create,
             (MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder, MPI_Comm *comm_cart));
AXON_MPI_API(int, Cart_get, (MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]));
AXON_MPI_API(int, Cartdim_get, (MPI_Comm comm, int *ndims));
AXON_MPI_API(int, Cart_rank, (MPI_Comm comm, const int coords[], int *rank));
AXON_MPI_API(int, Cart_coords, (MPI_Comm comm, int rank, int maxdims, int coords[]));
AXON_MPI_API(int, Cart_shift, (MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest));
AXON_MPI_API(int, Cart_sub, (MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm));
AXON_MPI_API(int, Cart_map, (MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank));
AXON_MPI_API(int, Topo_test, (MPI_Comm comm, int *status));

/* Graphs (MPI-1's: every process knows the whole graph) */
AXON_MPI_API(int, Graph_create,
             (MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder, MPI_Comm *comm_graph));
AXON_MPI_API(int, Graphdims_get, (MPI_Comm comm, int *nnodes, int *nedges));
AXON_MPI_API(int, Graph_get, (MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]));
AXON_MPI_API(int, Graph_neighbors_count, (MPI_Comm comm, int rank, int *nneighbors));
AXON_MPI_API(int, Graph_neighbors, (MPI_Comm comm, int rank, int maxneighbors, int neighbors[]));
AXON_MPI_API(int, Graph_map, (MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank));

/* Distributed graphs. MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY are addresses, as in MPICH: the library
 * exports the two pointers under these names, so programs built with either header agree on them. */
extern int *const MPI_UNWEIGHTED;
extern int *const MPI_WEIGHTS_EMPTY;
AXON_MPI_API(int, Dist_graph_create_adjacent,
             (MPI_Comm comm_old, int indegree, const int sources[], const int sourceweights[], int outdegree,
              const int destinations[], const int destweights[], MPI_Info info, int reorder,
              MPI_Comm *comm_dist_graph));
AXON_MPI_API(int, Dist_graph_create,
             (MPI_Comm comm_old, int n, const int sources[], const int degrees[], const int destinations[],
              const int weights[], MPI_Info info, int reorder, MPI_Comm *comm_dist_graph));
AXON_MPI_API(int, Dist_graph_neighbors_count, (MPI_Comm comm, int *indegree, int *outdegree, int *weighted));
AXON_MPI_API(int, Dist_graph_neighbors, (MPI_Comm comm, int maxindegree, int sources[], int sourceweights[],
                                         int maxoutdegree, int destinations[], int destweights[]));

/* One-sided communication: declared so that programs link; each call returns
 * MPI_ERR_UNSUPPORTED_OPERATION until Axon implements one-sided communication. */
#define MPI_LOCK_EXCLUSIVE 234
#define MPI_LOCK_SHARED 235
#define MPI_MODE_NOCHECK 1024
#define MPI_MODE_NOSTORE 2048
#define MPI_MODE_NOPUT 4096
#define MPI_MODE_NOPRECEDE 8192
#define MPI_MODE_NOSUCCEED 16384
/* Window attributes, flavors and memory models, for MPI_Win_get_attr. */
#define MPI_WIN_BASE 0x66000001
#define MPI_WIN_SIZE 0x66000003
#define MPI_WIN_DISP_UNIT 0x66000005
#define MPI_WIN_CREATE_FLAVOR 0x66000007
#define MPI_WIN_MODEL 0x66000009
#define MPI_WIN_FLAVOR_CREATE 1
#define MPI_WIN_FLAVOR_ALLOCATE 2
#define MPI_WIN_FLAVOR_DYNAMIC 3
#define MPI_WIN_FLAVOR_SHARED 4
#define MPI_WIN_SEPARATE 1
#define MPI_WIN_UNIFIED 2
AXON_MPI_API(int, Win_create,
             (void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win));
AXON_MPI_API(int, Win_allocate,
             (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win));
AXON_MPI_API(int, Win_create_dynamic, (MPI_Info info, MPI_Comm comm, MPI_Win *win));
AXON_MPI_API(int, Win_attach, (MPI_Win win, void *base, MPI_Aint size));
AXON_MPI_API(int, Win_detach, (MPI_Win win, const void *base));
AXON_MPI_API(int, Win_free, (MPI_Win * win));
AXON_MPI_API(int, Win_fence, (int assert, MPI_Win win));
AXON_MPI_API(int, Win_lock, (int lock_type, int rank, int assert, MPI_Win win));
AXON_MPI_API(int, Win_unlock, (int rank, MPI_Win win));
AXON_MPI_API(int, Win_lock_all, (int assert, MPI_Win win));
AXON_MPI_API(int, Win_unlock_all, (MPI_Win win));
AXON_MPI_API(int, Win_flush, (int rank, MPI_Win win));
AXON_MPI_API(int, Win_flush_local, (int rank, MPI_Win win));
AXON_MPI_API(int, Win_post, (MPI_Group group, int assert, MPI_Win win));
AXON_MPI_API(int, Win_start, (MPI_Group group, int assert, MPI_Win win));
AXON_MPI_API(int, Win_complete, (MPI_Win win));
AXON_MPI_API(int, Win_wait, (MPI_Win win));
AXON_MPI_API(int, Put,
             (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
              MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win));
AXON_MPI_API(int, Get,
             (void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
              MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win));

/* ---- MPI 4 and 5 additions that mpi4py's MPICH-ABI build references ------------------------------ */
/* Handle conversions as functions (the macros above serve C callers; bindings call these). The names
 * are parenthesized so the c2f/f2c macros do not expand. */
#define AXON_MPI_CONVERT_API(Kind, Type)                                                             \
    MPI_Fint(MPI_##Kind##_c2f)(Type handle);                                                         \
    MPI_Fint(PMPI_##Kind##_c2f)(Type handle);                                                        \
    Type(MPI_##Kind##_f2c)(MPI_Fint handle);                                                         \
    Type(PMPI_##Kind##_f2c)(MPI_Fint handle);                                                        \
    int MPI_##Kind##_toint(Type handle);                                                             \
    int PMPI_##Kind##_toint(Type handle);                                                            \
    Type MPI_##Kind##_fromint(int handle);                                                           \
    Type PMPI_##Kind##_fromint(int handle)
AXON_MPI_CONVERT_API(Comm, MPI_Comm);
AXON_MPI_CONVERT_API(Errhandler, MPI_Errhandler);
AXON_MPI_CONVERT_API(File, MPI_File);
AXON_MPI_CONVERT_API(Group, MPI_Group);
AXON_MPI_CONVERT_API(Info, MPI_Info);
AXON_MPI_CONVERT_API(Message, MPI_Message);
AXON_MPI_CONVERT_API(Op, MPI_Op);
AXON_MPI_CONVERT_API(Request, MPI_Request);
AXON_MPI_CONVERT_API(Session, MPI_Session);
AXON_MPI_CONVERT_API(Type, MPI_Datatype);
AXON_MPI_CONVERT_API(Win, MPI_Win);
#undef AXON_MPI_CONVERT_API
/* A Fortran status: the five ints of MPI_Status, in order; the indices of its three named fields. */
#define MPI_F_STATUS_SIZE 5
#define MPI_F_SOURCE 2
#define MPI_F_TAG 3
#define MPI_F_ERROR 4
AXON_MPI_API(int, Status_c2f, (const MPI_Status *c_status, MPI_Fint *f_status));
AXON_MPI_API(int, Status_f2c, (const MPI_Fint *f_status, MPI_Status *c_status));
/* Status fields (MPI 4.1) */
AXON_MPI_API(int, Status_get_source, (const MPI_Status *status, int *source));
AXON_MPI_API(int, Status_get_tag, (const MPI_Status *status, int *tag));
AXON_MPI_API(int, Status_get_error, (const MPI_Status *status, int *error));
AXON_MPI_API(int, Status_set_source, (MPI_Status * status, int source));
AXON_MPI_API(int, Status_set_tag, (MPI_Status * status, int tag));
AXON_MPI_API(int, Status_set_error, (MPI_Status * status, int error));
AXON_MPI_API(int, Status_set_elements_c, (MPI_Status * status, MPI_Datatype datatype, MPI_Count count));
/* The ABI (MPI 5): Axon has the MPICH ABI, not the standard one, so the version is -1.-1. */
AXON_MPI_API(int, Abi_get_version, (int *abi_major, int *abi_minor));
AXON_MPI_API(int, Abi_get_info, (MPI_Info * info));
AXON_MPI_API(int, Abi_get_fortran_info, (MPI_Info * info));
/* Requests without completion (MPI 4.1), info, errors */
AXON_MPI_API(int, Request_get_status_all,
             (int count, const MPI_Request array_of_requests[], int *flag, MPI_Status *array_of_statuses));
AXON_MPI_API(int, Request_get_status_any,
             (int count, const MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status));
AXON_MPI_API(int, Request_get_status_some, (int incount, const MPI_Request array_of_requests[], int *outcount,
                                            int array_of_indices[], MPI_Status *array_of_statuses));
AXON_MPI_API(int, Info_create_env, (int argc, char *argv[], MPI_Info *info));
AXON_MPI_API(int, Remove_error_string, (int errorcode));
/* Datatypes: value-index pairs, packing with large counts and in external32 */
AXON_MPI_API(int, Type_get_value_index, (MPI_Datatype value_type, MPI_Datatype index_type, MPI_Datatype *pair_type));
AXON_MPI_API(int, Pack_c, (const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
                           MPI_Count outsize, MPI_Count *position, MPI_Comm comm));
AXON_MPI_API(int, Unpack_c, (const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                             MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm));
AXON_MPI_API(int, Pack_size_c, (MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size));
AXON_MPI_API(int, Pack_external, (const char datarep[], const void *inbuf, int incount, MPI_Datatype datatype,
                                  void *outbuf, MPI_Aint outsize, MPI_Aint *position));
AXON_MPI_API(int, Pack_external_c, (const char datarep[], const void *inbuf, MPI_Count incount,
                                    MPI_Datatype datatype, void *outbuf, MPI_Count outsize, MPI_Count *position));
AXON_MPI_API(int, Unpack_external, (const char datarep[], const void *inbuf, MPI_Aint insize, MPI_Aint *position,
                                    void *outbuf, int outcount, MPI_Datatype datatype));
AXON_MPI_API(int, Unpack_external_c, (const char datarep[], const void *inbuf, MPI_Count insize,
                                      MPI_Count *position, void *outbuf, MPI_Count outcount, MPI_Datatype datatype));
AXON_MPI_API(int, Pack_external_size, (const char datarep[], int incount, MPI_Datatype datatype, MPI_Aint *size));
AXON_MPI_API(int, Pack_external_size_c,
             (const char datarep[], MPI_Count incount, MPI_Datatype datatype, MPI_Count *size));
/* Large-count (_c) forms: the int call when every count fits in an int, MPI_ERR_COUNT otherwise */
AXON_MPI_API(int, Buffer_detach_c, (void *buffer_addr, MPI_Count *size));
AXON_MPI_API(int, Get_count_c, (const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count));
AXON_MPI_API(int, Get_elements_c, (const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count));
AXON_MPI_API(int, Type_size_c, (MPI_Datatype datatype, MPI_Count *size));
AXON_MPI_API(int, Type_get_extent_c, (MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent));
AXON_MPI_API(int, Type_get_true_extent_c, (MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent));
AXON_MPI_API(int, Type_get_envelope_c, (MPI_Datatype datatype, MPI_Count *num_integers, MPI_Count *num_addresses,
                                        MPI_Count *num_large_counts, MPI_Count *num_datatypes, int *combiner));
AXON_MPI_API(int, Type_get_contents_c,
             (MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses, MPI_Count max_large_counts,
              MPI_Count max_datatypes, int array_of_integers[], MPI_Aint array_of_addresses[],
              MPI_Count array_of_large_counts[], MPI_Datatype array_of_datatypes[]));
/* ... point-to-point */
AXON_MPI_API(int, Send_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm));
AXON_MPI_API(int, Bsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm));
AXON_MPI_API(int, Ssend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm));
AXON_MPI_API(int, Rsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm));
AXON_MPI_API(int, Recv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status));
AXON_MPI_API(int, Isend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Ibsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Issend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Irsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Irecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Send_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Bsend_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Ssend_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Rsend_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Recv_init_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Sendrecv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status));
AXON_MPI_API(int, Sendrecv_replace_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status *status));
AXON_MPI_API(int, Isendrecv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Isendrecv_replace_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Mrecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status));
AXON_MPI_API(int, Imrecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request));
AXON_MPI_API(int, Buffer_attach_c, (void *buffer, MPI_Count size));
/* ... collectives, nonblocking and persistent */
AXON_MPI_API(int, Bcast_c, (void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm));
AXON_MPI_API(int, Ibcast_c, (void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Bcast_init_c, (void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request));
AXON_MPI_API(int, Gather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm));
AXON_MPI_API(int, Igather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Gather_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request));
AXON_MPI_API(int, Gatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root, MPI_Comm comm));
AXON_MPI_API(int, Igatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Gatherv_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request));
AXON_MPI_API(int, Scatter_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm));
AXON_MPI_API(int, Iscatter_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Scatter_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request));
AXON_MPI_API(int, Scatterv_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm));
AXON_MPI_API(int, Iscatterv_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Scatterv_init_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request));
AXON_MPI_API(int, Allgather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm));
AXON_MPI_API(int, Iallgather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Allgather_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request));
AXON_MPI_API(int, Allgatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm));
AXON_MPI_API(int, Iallgatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Allgatherv_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request));
AXON_MPI_API(int, Alltoall_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm));
AXON_MPI_API(int, Ialltoall_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Alltoall_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request));
AXON_MPI_API(int, Alltoallv_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm));
AXON_MPI_API(int, Ialltoallv_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Alltoallv_init_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request));
AXON_MPI_API(int, Alltoallw_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm));
AXON_MPI_API(int, Ialltoallw_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Alltoallw_init_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request *request));
AXON_MPI_API(int, Reduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm));
AXON_MPI_API(int, Ireduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Reduce_init_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request));
AXON_MPI_API(int, Allreduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));
AXON_MPI_API(int, Iallreduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Allreduce_init_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request));
AXON_MPI_API(int, Reduce_scatter_block_c, (const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));
AXON_MPI_API(int, Ireduce_scatter_block_c, (const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Reduce_scatter_block_init_c, (const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request));
AXON_MPI_API(int, Reduce_scatter_c, (const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));
AXON_MPI_API(int, Ireduce_scatter_c, (const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Reduce_scatter_init_c, (const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request));
AXON_MPI_API(int, Scan_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));
AXON_MPI_API(int, Iscan_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Scan_init_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request));
AXON_MPI_API(int, Exscan_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm));
AXON_MPI_API(int, Iexscan_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Exscan_init_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request));
/* ... neighborhood collectives */
AXON_MPI_API(int, Neighbor_allgather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm));
AXON_MPI_API(int, Ineighbor_allgather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Neighbor_allgather_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request));
AXON_MPI_API(int, Neighbor_allgatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm));
AXON_MPI_API(int, Ineighbor_allgatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Neighbor_allgatherv_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request));
AXON_MPI_API(int, Neighbor_alltoall_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm));
AXON_MPI_API(int, Ineighbor_alltoall_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Neighbor_alltoall_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request));
AXON_MPI_API(int, Neighbor_alltoallv_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm));
AXON_MPI_API(int, Ineighbor_alltoallv_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Neighbor_alltoallv_init_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request));
AXON_MPI_API(int, Neighbor_alltoallw_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm));
AXON_MPI_API(int, Ineighbor_alltoallw_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Neighbor_alltoallw_init_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request *request));
/* ... datatypes */
AXON_MPI_API(int, Type_contiguous_c, (MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype));
AXON_MPI_API(int, Type_vector_c, (MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype, MPI_Datatype *newtype));
AXON_MPI_API(int, Type_create_hvector_c, (MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype, MPI_Datatype *newtype));
AXON_MPI_API(int, Type_indexed_c, (MPI_Count count, const MPI_Count array_of_blocklengths[], const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype));
AXON_MPI_API(int, Type_create_hindexed_c, (MPI_Count count, const MPI_Count array_of_blocklengths[], const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype));
AXON_MPI_API(int, Type_create_indexed_block_c, (MPI_Count count, MPI_Count blocklength, const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype));
AXON_MPI_API(int, Type_create_hindexed_block_c, (MPI_Count count, MPI_Count blocklength, const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype));
AXON_MPI_API(int, Type_create_struct_c, (MPI_Count count, const MPI_Count array_of_blocklengths[], const MPI_Count array_of_displacements[], const MPI_Datatype array_of_types[], MPI_Datatype *newtype));
AXON_MPI_API(int, Type_create_subarray_c, (int ndims, const MPI_Count array_of_sizes[], const MPI_Count array_of_subsizes[], const MPI_Count array_of_starts[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype));
AXON_MPI_API(int, Type_create_darray_c, (int size, int rank, int ndims, const MPI_Count array_of_gsizes[], const int array_of_distribs[], const int array_of_dargs[], const int array_of_psizes[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype));
AXON_MPI_API(int, Type_create_resized_c, (MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent, MPI_Datatype *newtype));
AXON_MPI_API(int, Reduce_local_c, (const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op));
/* ---- not implemented: each returns MPI_ERR_UNSUPPORTED_OPERATION (output handles set to null) ---- */
/* One-sided communication beyond the calls above */
AXON_MPI_API(int, Win_allocate_shared, (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win));
AXON_MPI_API(int, Win_allocate_shared_c, (MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win));
AXON_MPI_API(int, Win_allocate_c, (MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win));
AXON_MPI_API(int, Win_create_c, (void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win));
AXON_MPI_API(int, Win_shared_query, (MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr));
AXON_MPI_API(int, Win_shared_query_c, (MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit, void *baseptr));
AXON_MPI_API(int, Win_flush_all, (MPI_Win win));
AXON_MPI_API(int, Win_flush_local_all, (MPI_Win win));
AXON_MPI_API(int, Win_sync, (MPI_Win win));
AXON_MPI_API(int, Win_test, (MPI_Win win, int *flag));
AXON_MPI_API(int, Win_get_group, (MPI_Win win, MPI_Group *group));
AXON_MPI_API(int, Win_set_info, (MPI_Win win, MPI_Info info));
AXON_MPI_API(int, Win_get_info, (MPI_Win win, MPI_Info *info_used));
AXON_MPI_API(int, Win_set_name, (MPI_Win win, const char *win_name));
AXON_MPI_API(int, Win_get_name, (MPI_Win win, char *win_name, int *resultlen));
AXON_MPI_API(int, Win_create_keyval, (MPI_Win_copy_attr_function *win_copy_attr_fn, MPI_Win_delete_attr_function *win_delete_attr_fn, int *win_keyval, void *extra_state));
AXON_MPI_API(int, Win_free_keyval, (int *win_keyval));
AXON_MPI_API(int, Win_set_attr, (MPI_Win win, int win_keyval, void *attribute_val));
AXON_MPI_API(int, Win_get_attr, (MPI_Win win, int win_keyval, void *attribute_val, int *flag));
AXON_MPI_API(int, Win_delete_attr, (MPI_Win win, int win_keyval));
AXON_MPI_API(int, Win_set_errhandler, (MPI_Win win, MPI_Errhandler errhandler));
AXON_MPI_API(int, Win_get_errhandler, (MPI_Win win, MPI_Errhandler *errhandler));
AXON_MPI_API(int, Win_call_errhandler, (MPI_Win win, int errorcode));
AXON_MPI_API(int, Win_create_errhandler, (MPI_Win_errhandler_function * win_errhandler_fn, MPI_Errhandler *errhandler));
AXON_MPI_API(int, Put_c, (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win));
AXON_MPI_API(int, Get_c, (void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win));
AXON_MPI_API(int, Rput, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request));
AXON_MPI_API(int, Rput_c, (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request));
AXON_MPI_API(int, Rget, (void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request));
AXON_MPI_API(int, Rget_c, (void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request));
AXON_MPI_API(int, Accumulate, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win));
AXON_MPI_API(int, Accumulate_c, (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win));
AXON_MPI_API(int, Raccumulate, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request));
AXON_MPI_API(int, Raccumulate_c, (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request));
AXON_MPI_API(int, Get_accumulate, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win));
AXON_MPI_API(int, Get_accumulate_c, (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win));
AXON_MPI_API(int, Rget_accumulate, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request));
AXON_MPI_API(int, Rget_accumulate_c, (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request));
AXON_MPI_API(int, Fetch_and_op, (const void *origin_addr, void *result_addr, MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win));
AXON_MPI_API(int, Compare_and_swap, (const void *origin_addr, const void *compare_addr, void *result_addr, MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win));
/* MPI-IO (the error-handler calls work, on MPI_FILE_NULL); the constants are MPICH's (ROMIO's). */
#define MPI_MODE_CREATE 1
#define MPI_MODE_RDONLY 2
#define MPI_MODE_WRONLY 4
#define MPI_MODE_RDWR 8
#define MPI_MODE_DELETE_ON_CLOSE 16
#define MPI_MODE_UNIQUE_OPEN 32
#define MPI_MODE_EXCL 64
#define MPI_MODE_APPEND 128
#define MPI_MODE_SEQUENTIAL 256
#define MPI_SEEK_SET 600
#define MPI_SEEK_CUR 602
#define MPI_SEEK_END 604
#define MPI_DISPLACEMENT_CURRENT ((MPI_Offset)-54278278)
#define MPI_MAX_DATAREP_STRING 128
#define MPI_CONVERSION_FN_NULL ((MPI_Datarep_conversion_function *)0)
#define MPI_CONVERSION_FN_NULL_C ((MPI_Datarep_conversion_function_c *)0)
AXON_MPI_API(int, File_create_errhandler, (MPI_File_errhandler_function * file_errhandler_fn, MPI_Errhandler *errhandler));
AXON_MPI_API(int, File_set_errhandler, (MPI_File file, MPI_Errhandler errhandler));
AXON_MPI_API(int, File_get_errhandler, (MPI_File file, MPI_Errhandler *errhandler));
AXON_MPI_API(int, File_call_errhandler, (MPI_File fh, int errorcode));
AXON_MPI_API(int, File_open, (MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh));
AXON_MPI_API(int, File_close, (MPI_File *fh));
AXON_MPI_API(int, File_delete, (const char *filename, MPI_Info info));
AXON_MPI_API(int, File_set_size, (MPI_File fh, MPI_Offset size));
AXON_MPI_API(int, File_preallocate, (MPI_File fh, MPI_Offset size));
AXON_MPI_API(int, File_get_size, (MPI_File fh, MPI_Offset *size));
AXON_MPI_API(int, File_get_group, (MPI_File fh, MPI_Group *group));
AXON_MPI_API(int, File_get_amode, (MPI_File fh, int *amode));
AXON_MPI_API(int, File_set_info, (MPI_File fh, MPI_Info info));
AXON_MPI_API(int, File_get_info, (MPI_File fh, MPI_Info *info_used));
AXON_MPI_API(int, File_set_view, (MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype, const char *datarep, MPI_Info info));
AXON_MPI_API(int, File_get_view, (MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype, MPI_Datatype *filetype, char *datarep));
AXON_MPI_API(int, File_seek, (MPI_File fh, MPI_Offset offset, int whence));
AXON_MPI_API(int, File_seek_shared, (MPI_File fh, MPI_Offset offset, int whence));
AXON_MPI_API(int, File_get_position, (MPI_File fh, MPI_Offset *offset));
AXON_MPI_API(int, File_get_position_shared, (MPI_File fh, MPI_Offset *offset));
AXON_MPI_API(int, File_get_byte_offset, (MPI_File fh, MPI_Offset offset, MPI_Offset *disp));
AXON_MPI_API(int, File_get_type_extent, (MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent));
AXON_MPI_API(int, File_get_type_extent_c, (MPI_File fh, MPI_Datatype datatype, MPI_Count *extent));
AXON_MPI_API(int, File_set_atomicity, (MPI_File fh, int flag));
AXON_MPI_API(int, File_get_atomicity, (MPI_File fh, int *flag));
AXON_MPI_API(int, File_sync, (MPI_File fh));
AXON_MPI_API(int, File_read, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status));
AXON_MPI_API(int, File_iread, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request));
AXON_MPI_API(int, File_read_at, (MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Status *status));
AXON_MPI_API(int, File_iread_at, (MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Request *request));
AXON_MPI_API(int, File_read_all, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status));
AXON_MPI_API(int, File_iread_all, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request));
AXON_MPI_API(int, File_read_at_all, (MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Status *status));
AXON_MPI_API(int, File_iread_at_all, (MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Request *request));
AXON_MPI_API(int, File_read_shared, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status));
AXON_MPI_API(int, File_iread_shared, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request));
AXON_MPI_API(int, File_read_ordered, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status));
AXON_MPI_API(int, File_read_all_begin, (MPI_File fh, void *buf, int count, MPI_Datatype datatype));
AXON_MPI_API(int, File_read_all_end, (MPI_File fh, void *buf, MPI_Status *status));
AXON_MPI_API(int, File_read_at_all_begin, (MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype));
AXON_MPI_API(int, File_read_at_all_end, (MPI_File fh, void *buf, MPI_Status *status));
AXON_MPI_API(int, File_read_ordered_begin, (MPI_File fh, void *buf, int count, MPI_Datatype datatype));
AXON_MPI_API(int, File_read_ordered_end, (MPI_File fh, void *buf, MPI_Status *status));
AXON_MPI_API(int, File_write, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status));
AXON_MPI_API(int, File_iwrite, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request));
AXON_MPI_API(int, File_write_at, (MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status));
AXON_MPI_API(int, File_iwrite_at, (MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request));
AXON_MPI_API(int, File_write_all, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status));
AXON_MPI_API(int, File_iwrite_all, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request));
AXON_MPI_API(int, File_write_at_all, (MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status));
AXON_MPI_API(int, File_iwrite_at_all, (MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request));
AXON_MPI_API(int, File_write_shared, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status));
AXON_MPI_API(int, File_iwrite_shared, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request));
AXON_MPI_API(int, File_write_ordered, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status));
AXON_MPI_API(int, File_write_all_begin, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype));
AXON_MPI_API(int, File_write_all_end, (MPI_File fh, const void *buf, MPI_Status *status));
AXON_MPI_API(int, File_write_at_all_begin, (MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype));
AXON_MPI_API(int, File_write_at_all_end, (MPI_File fh, const void *buf, MPI_Status *status));
AXON_MPI_API(int, File_write_ordered_begin, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype));
AXON_MPI_API(int, File_write_ordered_end, (MPI_File fh, const void *buf, MPI_Status *status));
AXON_MPI_API(int, File_read_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status));
AXON_MPI_API(int, File_iread_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request));
AXON_MPI_API(int, File_read_at_c, (MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status));
AXON_MPI_API(int, File_iread_at_c, (MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request));
AXON_MPI_API(int, File_read_all_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status));
AXON_MPI_API(int, File_iread_all_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request));
AXON_MPI_API(int, File_read_at_all_c, (MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status));
AXON_MPI_API(int, File_iread_at_all_c, (MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request));
AXON_MPI_API(int, File_read_shared_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status));
AXON_MPI_API(int, File_iread_shared_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request));
AXON_MPI_API(int, File_read_ordered_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status));
AXON_MPI_API(int, File_read_all_begin_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype));
AXON_MPI_API(int, File_read_at_all_begin_c, (MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype));
AXON_MPI_API(int, File_read_ordered_begin_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype));
AXON_MPI_API(int, File_write_c, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status));
AXON_MPI_API(int, File_iwrite_c, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request));
AXON_MPI_API(int, File_write_at_c, (MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status));
AXON_MPI_API(int, File_iwrite_at_c, (MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request));
AXON_MPI_API(int, File_write_all_c, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status));
AXON_MPI_API(int, File_iwrite_all_c, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request));
AXON_MPI_API(int, File_write_at_all_c, (MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status));
AXON_MPI_API(int, File_iwrite_at_all_c, (MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request));
AXON_MPI_API(int, File_write_shared_c, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status));
AXON_MPI_API(int, File_iwrite_shared_c, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request));
AXON_MPI_API(int, File_write_ordered_c, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status));
AXON_MPI_API(int, File_write_all_begin_c, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype));
AXON_MPI_API(int, File_write_at_all_begin_c, (MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype));
AXON_MPI_API(int, File_write_ordered_begin_c, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype));
/* Sessions and process sets (MPI_Session_create_errhandler works) */
AXON_MPI_API(int, Session_create_errhandler, (MPI_Session_errhandler_function * session_errhandler_fn, MPI_Errhandler *errhandler));
AXON_MPI_API(int, Session_init, (MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session));
AXON_MPI_API(int, Session_finalize, (MPI_Session *session));
AXON_MPI_API(int, Session_get_num_psets, (MPI_Session session, MPI_Info info, int *npset_names));
AXON_MPI_API(int, Session_get_nth_pset, (MPI_Session session, MPI_Info info, int n, int *pset_len, char *pset_name));
AXON_MPI_API(int, Session_get_pset_info, (MPI_Session session, const char *pset_name, MPI_Info *info));
AXON_MPI_API(int, Session_get_info, (MPI_Session session, MPI_Info *info_used));
AXON_MPI_API(int, Session_set_errhandler, (MPI_Session session, MPI_Errhandler errhandler));
AXON_MPI_API(int, Session_get_errhandler, (MPI_Session session, MPI_Errhandler *errhandler));
AXON_MPI_API(int, Session_call_errhandler, (MPI_Session session, int errorcode));
AXON_MPI_API(int, Session_attach_buffer, (MPI_Session session, void *buffer, int size));
AXON_MPI_API(int, Session_attach_buffer_c, (MPI_Session session, void *buffer, MPI_Count size));
AXON_MPI_API(int, Session_detach_buffer, (MPI_Session session, void *buffer_addr, int *size));
AXON_MPI_API(int, Session_detach_buffer_c, (MPI_Session session, void *buffer_addr, MPI_Count *size));
AXON_MPI_API(int, Session_flush_buffer, (MPI_Session session));
AXON_MPI_API(int, Session_iflush_buffer, (MPI_Session session, MPI_Request *request));
AXON_MPI_API(int, Group_from_session_pset, (MPI_Session session, const char *pset_name, MPI_Group *newgroup));
AXON_MPI_API(int, Comm_create_from_group, (MPI_Group group, const char *stringtag, MPI_Info info, MPI_Errhandler errhandler, MPI_Comm *newcomm));
AXON_MPI_API(int, Intercomm_create_from_groups, (MPI_Group local_group, int local_leader, MPI_Group remote_group, int remote_leader, const char *stringtag, MPI_Info info, MPI_Errhandler errhandler, MPI_Comm *newintercomm));
/* Dynamic processes, ports and names */
AXON_MPI_API(int, Comm_spawn, (const char *command, char *argv[], int maxprocs, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[]));
AXON_MPI_API(int, Comm_spawn_multiple, (int count, char *array_of_commands[], char **array_of_argv[], const int array_of_maxprocs[], const MPI_Info array_of_info[], int root, MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[]));
AXON_MPI_API(int, Comm_accept, (const char *port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *newcomm));
AXON_MPI_API(int, Comm_connect, (const char *port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *newcomm));
AXON_MPI_API(int, Comm_join, (int fd, MPI_Comm *intercomm));
AXON_MPI_API(int, Comm_disconnect, (MPI_Comm *comm));
AXON_MPI_API(int, Open_port, (MPI_Info info, char *port_name));
AXON_MPI_API(int, Close_port, (const char *port_name));
AXON_MPI_API(int, Publish_name, (const char *service_name, MPI_Info info, const char *port_name));
AXON_MPI_API(int, Unpublish_name, (const char *service_name, MPI_Info info, const char *port_name));
AXON_MPI_API(int, Lookup_name, (const char *service_name, MPI_Info info, char *port_name));
/* Partitioned communication */
AXON_MPI_API(int, Psend_init, (const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request));
AXON_MPI_API(int, Precv_init, (void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request));
AXON_MPI_API(int, Pready, (int partition, MPI_Request request));
AXON_MPI_API(int, Pready_range, (int partition_low, int partition_high, MPI_Request request));
AXON_MPI_API(int, Pready_list, (int length, const int array_of_partitions[], MPI_Request request));
AXON_MPI_API(int, Parrived, (MPI_Request request, int partition, int *flag));
/* The rest: buffers of MPI 4.1, data representations, Fortran 90 types, hardware info, ... */
AXON_MPI_API(int, Buffer_flush, (void));
AXON_MPI_API(int, Buffer_iflush, (MPI_Request *request));
AXON_MPI_API(int, Comm_attach_buffer, (MPI_Comm comm, void *buffer, int size));
AXON_MPI_API(int, Comm_attach_buffer_c, (MPI_Comm comm, void *buffer, MPI_Count size));
AXON_MPI_API(int, Comm_detach_buffer, (MPI_Comm comm, void *buffer_addr, int *size));
AXON_MPI_API(int, Comm_detach_buffer_c, (MPI_Comm comm, void *buffer_addr, MPI_Count *size));
AXON_MPI_API(int, Comm_flush_buffer, (MPI_Comm comm));
AXON_MPI_API(int, Comm_iflush_buffer, (MPI_Comm comm, MPI_Request *request));
AXON_MPI_API(int, Register_datarep, (const char *datarep, MPI_Datarep_conversion_function *read_conversion_fn, MPI_Datarep_conversion_function *write_conversion_fn, MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state));
AXON_MPI_API(int, Register_datarep_c, (const char *datarep, MPI_Datarep_conversion_function_c *read_conversion_fn, MPI_Datarep_conversion_function_c *write_conversion_fn, MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state));
AXON_MPI_API(int, Type_create_f90_integer, (int r, MPI_Datatype *newtype));
AXON_MPI_API(int, Type_create_f90_real, (int p, int r, MPI_Datatype *newtype));
AXON_MPI_API(int, Type_create_f90_complex, (int p, int r, MPI_Datatype *newtype));
AXON_MPI_API(int, Get_hw_resource_info, (MPI_Info *hw_info));
AXON_MPI_API(int, Op_create_c, (MPI_User_function_c *user_fn, int commute, MPI_Op *op));
AXON_MPI_API(int, Remove_error_class, (int errorclass));
AXON_MPI_API(int, Remove_error_code, (int errorcode));
/* The tools interface (mpi/tool/axon_mpi_tool.c): callable before MPI_Init and after MPI_Finalize. */
AXON_MPI_API(int, T_init_thread, (int required, int *provided));
AXON_MPI_API(int, T_finalize, (void));
AXON_MPI_API(int, T_enum_get_info, (MPI_T_enum enumtype, int *num, char *name, int *name_len));
AXON_MPI_API(int, T_enum_get_item, (MPI_T_enum enumtype, int indx, int *value, char *name, int *name_len));
AXON_MPI_API(int, T_cvar_get_num, (int *num_cvar));
AXON_MPI_API(int, T_cvar_get_info, (int cvar_index, char *name, int *name_len, int *verbosity, MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind, int *scope));
AXON_MPI_API(int, T_cvar_get_index, (const char *name, int *cvar_index));
AXON_MPI_API(int, T_cvar_handle_alloc, (int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle, int *count));
AXON_MPI_API(int, T_cvar_handle_free, (MPI_T_cvar_handle *handle));
AXON_MPI_API(int, T_cvar_read, (MPI_T_cvar_handle handle, void *buf));
AXON_MPI_API(int, T_cvar_write, (MPI_T_cvar_handle handle, const void *buf));
AXON_MPI_API(int, T_pvar_get_num, (int *num_pvar));
AXON_MPI_API(int, T_pvar_get_info, (int pvar_index, char *name, int *name_len, int *verbosity, int *var_class, MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind, int *readonly, int *continuous, int *atomic));
AXON_MPI_API(int, T_pvar_get_index, (const char *name, int var_class, int *pvar_index));
AXON_MPI_API(int, T_pvar_session_create, (MPI_T_pvar_session *session));
AXON_MPI_API(int, T_pvar_session_free, (MPI_T_pvar_session *session));
AXON_MPI_API(int, T_pvar_handle_alloc, (MPI_T_pvar_session session, int pvar_index, void *obj_handle, MPI_T_pvar_handle *handle, int *count));
AXON_MPI_API(int, T_pvar_handle_free, (MPI_T_pvar_session session, MPI_T_pvar_handle *handle));
AXON_MPI_API(int, T_pvar_start, (MPI_T_pvar_session session, MPI_T_pvar_handle handle));
AXON_MPI_API(int, T_pvar_stop, (MPI_T_pvar_session session, MPI_T_pvar_handle handle));
AXON_MPI_API(int, T_pvar_read, (MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf));
AXON_MPI_API(int, T_pvar_write, (MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf));
AXON_MPI_API(int, T_pvar_reset, (MPI_T_pvar_session session, MPI_T_pvar_handle handle));
AXON_MPI_API(int, T_pvar_readreset, (MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf));
AXON_MPI_API(int, T_event_get_num, (int *num_events));
AXON_MPI_API(int, T_event_get_info, (int event_index, char *name, int *name_len, int *verbosity, MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[], int *num_elements, MPI_T_enum *enumtype, MPI_Info *info, char *desc, int *desc_len, int *bind));
AXON_MPI_API(int, T_event_get_index, (const char *name, int *event_index));
AXON_MPI_API(int, T_event_handle_alloc, (int event_index, void *obj_handle, MPI_Info info, MPI_T_event_registration *event_registration));
AXON_MPI_API(int, T_event_handle_free, (MPI_T_event_registration event_registration, void *user_data, MPI_T_event_free_cb_function free_cb_function));
AXON_MPI_API(int, T_event_handle_get_info, (MPI_T_event_registration event_registration, MPI_Info *info_used));
AXON_MPI_API(int, T_event_handle_set_info, (MPI_T_event_registration event_registration, MPI_Info info));
AXON_MPI_API(int, T_event_register_callback, (MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety, MPI_Info info, void *user_data, MPI_T_event_cb_function event_cb_function));
AXON_MPI_API(int, T_event_callback_get_info, (MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety, MPI_Info *info_used));
AXON_MPI_API(int, T_event_callback_set_info, (MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety, MPI_Info info));
AXON_MPI_API(int, T_event_set_dropped_handler, (MPI_T_event_registration event_registration, MPI_T_event_dropped_cb_function dropped_cb_function));
AXON_MPI_API(int, T_event_read, (MPI_T_event_instance event_instance, int element_index, void *buffer));
AXON_MPI_API(int, T_event_copy, (MPI_T_event_instance event_instance, void *buffer));
AXON_MPI_API(int, T_event_get_timestamp, (MPI_T_event_instance event_instance, MPI_Count *event_timestamp));
AXON_MPI_API(int, T_event_get_source, (MPI_T_event_instance event_instance, int *source_index));
AXON_MPI_API(int, T_source_get_num, (int *num_sources));
AXON_MPI_API(int, T_source_get_info, (int source_index, char *name, int *name_len, char *desc, int *desc_len, MPI_T_source_order *ordering, MPI_Count *ticks_per_second, MPI_Count *max_ticks, MPI_Info *info));
AXON_MPI_API(int, T_source_get_timestamp, (int source_index, MPI_Count *timestamp));
AXON_MPI_API(int, T_category_get_num, (int *num_cat));
AXON_MPI_API(int, T_category_get_info, (int cat_index, char *name, int *name_len, char *desc, int *desc_len, int *num_cvars, int *num_pvars, int *num_categories));
AXON_MPI_API(int, T_category_get_index, (const char *name, int *cat_index));
AXON_MPI_API(int, T_category_get_cvars, (int cat_index, int len, int indices[]));
AXON_MPI_API(int, T_category_get_pvars, (int cat_index, int len, int indices[]));
AXON_MPI_API(int, T_category_get_categories, (int cat_index, int len, int indices[]));
AXON_MPI_API(int, T_category_get_num_events, (int cat_index, int *num_events));
AXON_MPI_API(int, T_category_get_events, (int cat_index, int len, int indices[]));
AXON_MPI_API(int, T_category_changed, (int *update_number));
#undef AXON_MPI_API

#if defined(__cplusplus)
}
#endif

#endif /* MPI_INCLUDED */
