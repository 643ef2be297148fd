#!/bin/bash
# A class graded in 4 shards by a Slurm job array, then merged (docs/lms.md, "Shards").
#   sbatch examples/slurm-shards.sh
# The array must be 1-N or 0-(N-1), without a step: --shard auto takes K from
# SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN + 1 and N from SLURM_ARRAY_TASK_COUNT.
#SBATCH --job-name=vitgrade
#SBATCH --array=1-4
#SBATCH --cpus-per-task=2
#SBATCH --time=00:30:00
#SBATCH --output=vitgrade-%A_%a.log
set -euo pipefail

vitgrade grade-all submissions/ --shard auto --jobs "${SLURM_CPUS_PER_TASK}" \
    --out "graded-shards/${SLURM_ARRAY_TASK_ID}" --no-progress

# the last task to start queues the merge, to run once every task of the array has succeeded
if [ "${SLURM_ARRAY_TASK_ID}" = "${SLURM_ARRAY_TASK_MAX}" ]; then
    sbatch --dependency="afterok:${SLURM_ARRAY_JOB_ID}" --job-name=vitgrade-merge \
        --wrap="vitgrade merge graded-shards/*/ --out graded/"
fi
