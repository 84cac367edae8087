/* The cost model's answers for the selection (AXON_COLL_SELECT=model): the algorithm of least predicted
 * time for a call on a group's nodes, worked out by the simulator (coll/axon_coll_simulate.h) and kept in
 * the group's node map, where axon_coll_select_sched looks it up (coll/axon_coll_select.h).
 *
 * The simulator builds schedules with the collectives' own entry points, which choose through
 * axon_coll_select_sched, so the answers are worked out outside them: whoever builds a collective's
 * schedule on a communicator (coll/axon_coll_plan.c) asks here after each build, and builds again when
 * an answer came in. No algorithm, and not the selection, includes this header. */
#ifndef AXON_COLL_SELECT_MODEL_H
#define AXON_COLL_SELECT_MODEL_H

#include "coll/axon_coll_sched.h"

#include <stdbool.h>

/* Works out the answer to the question a built schedule noted (axon_coll_sched_miss_get) and keeps it
 * in the group's map. True when the map holds an answer for it now, so that the schedule, built again
 * under the same tag, takes it; false when there was no question or no memory for the answers (the
 * schedule stays as built: the rules'). */
bool axon_coll_select_model_fill(const struct axon_coll_sched *s);

/* How many times a builder builds a schedule again at most: each build may meet one more question (a
 * collective that calls another on the whole group asks for each kind), then the last build stays. */
enum { AXON_COLL_MODEL_REBUILDS = 8 };

#endif
