#!/bin/bash
# An ensemble as a Slurm job array (docs/ensemble.md "On a cluster"): task k of n computes shard
# k/n of the members, each on the cores of its node, and writes its part; a last job, started
# when every task has succeeded, merges the parts into the report a single run gives.
#
#   sbatch --array=1-16 docs/ensemble_slurm.sh CASE 10000      # 16 shards of 10,000 members
#   (the merge job is submitted by task 1, dependent on the whole array)
#
# Each part is `rodcollide ensemble --shard k/n --json`, carrying its members' numbers; merge refuses
# parts of another case, seed, member count or shard count, and a shard missing or given twice.
#SBATCH --job-name=rodcollide-ensemble
#SBATCH --cpus-per-task=8
#SBATCH --time=02:00:00
#SBATCH --output=ensemble-%A_%a.log
set -euo pipefail

case_file=${1:?usage: sbatch --array=1-N ensemble_slurm.sh CASE MEMBERS [SEED]}
members=${2:?members}
seed=${3:-1}
n=${SLURM_ARRAY_TASK_COUNT:?submit as a job array: sbatch --array=1-N}
k=${SLURM_ARRAY_TASK_ID}
out=${ENSEMBLE_OUT:-ensemble-$SLURM_ARRAY_JOB_ID}
mkdir -p "$out"

# Written under a temporary name and renamed: a task that fails leaves no part behind.
rodcollide ensemble "$case_file" --members "$members" --seed "$seed" --shard "$k/$n" \
    --threads "${SLURM_CPUS_PER_TASK:-0}" --json > "$out/part$k.json.tmp"
mv "$out/part$k.json.tmp" "$out/part$k.json"

if [[ $k == "${SLURM_ARRAY_TASK_MIN:-1}" ]]; then
  sbatch --dependency=afterok:"$SLURM_ARRAY_JOB_ID" --job-name=rodcollide-merge --cpus-per-task=1 \
         --output="$out/merge.log" --wrap \
         "rodcollide merge $out/part*.json --json > $out/ensemble.json && rodcollide merge $out/part*.json --csv $out/members.csv --plot $out/ensemble.png > $out/ensemble.txt"
fi
