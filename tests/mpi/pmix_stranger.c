/* A stranger to a job: a plain PMIx client that tries to join mpirun's PMIx server with the PMIx variables
 * the .test gives it (the server's address, a namespace, a rank), claiming to be the job's user (geteuid
 * and getegid below replace libc's for libpmix, whose native security sends the uid the client reports;
 * PMIX_STRANGER_CLAIM_UID says which). Joined, it reads rank 0's UCX address and ends the job with
 * PMIx_Abort(7). It prints what happened and exits 0 when it was refused, 1 when it got in. */
#include <pmix.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>

static uid_t pmix_stranger_claimed(void)
{
    const char *s = getenv("PMIX_STRANGER_CLAIM_UID");
    return s ? (uid_t)strtoul(s, NULL, 10) : 0;
}

uid_t geteuid(void)
{
    return pmix_stranger_claimed();
}

gid_t getegid(void)
{
    return (gid_t)pmix_stranger_claimed();
}

int main(void)
{
    pmix_proc_t me;
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        printf("pmix_stranger: refused: %s\n", PMIx_Error_string(rc));
        return 0;
    }
    printf("pmix_stranger: joined %s as rank %u\n", me.nspace, me.rank);
    pmix_proc_t rank0;
    PMIX_LOAD_PROCID(&rank0, me.nspace, 0);
    pmix_value_t *val = NULL;
    rc = PMIx_Get(&rank0, "axon.ucx.worker", NULL, 0, &val);
    if (rc == PMIX_SUCCESS) {
        printf("pmix_stranger: read rank 0's UCX address (%zu bytes)\n", val->data.bo.size);
        PMIX_VALUE_RELEASE(val);
    }
    PMIx_Abort(7, "pmix_stranger was here", NULL, 0);
    PMIx_Finalize(NULL, 0);
    return 1;
}
