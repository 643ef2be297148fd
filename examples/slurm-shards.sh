#!/bin/bash
# A class graded in 4 shards by a Slurm job array, then merged (docs/lms.md, "Shards").
# Submit it once, from the course repository (exercises/, solutions/, student_template/ and the
# class folder submissions/), with `vitgrade` on the PATH the nodes see:
#   sbatch examples/slurm-shards.sh
# --shard auto takes N from SLURM_ARRAY_TASK_COUNT and K from the task's place in the array:
# --array=1-4, 0-3, a step (1-7:2) and a throttle (1-4%2: at most 2 tasks at a time) all work;
# a list (1,2,5) does not (exit 2, "shard 5 of 3 does not exist").
# Tasks run as the user who submitted them: nothing hides the specs from student code then,
# unless grade-all runs as root (docs/lms.md, "Who the jobs run as").
# graded-shards/ is kept, so a re-run grades only what changed; remove it before re-running with
# another number of tasks (merge refuses shards of different N).
#SBATCH --job-name=vitgrade
#SBATCH --array=1-4
#SBATCH --cpus-per-task=2
#SBATCH --time=00:30:00
#SBATCH --output=vitgrade-%A_%a.log
set -euo pipefail

vitgrade grade-all submissions/ --exercises exercises/ --shard auto \
    --jobs "${SLURM_CPUS_PER_TASK}" --out "graded-shards/${SLURM_ARRAY_TASK_ID}" --no-progress

# The task with the highest id queues the merge, which runs once every task of the array has
# succeeded. If one failed, --kill-on-invalid-dep=yes makes Slurm cancel the merge (without it,
# the merge would stay pending for ever: "DependencyNeverSatisfied").
if [ "${SLURM_ARRAY_TASK_ID}" = "${SLURM_ARRAY_TASK_MAX}" ]; then
    sbatch --dependency="afterok:${SLURM_ARRAY_JOB_ID}" --kill-on-invalid-dep=yes \
        --job-name=vitgrade-merge --time=00:30:00 --output=vitgrade-merge-%j.log \
        --wrap="vitgrade merge graded-shards/*/ --out graded/"
fi
