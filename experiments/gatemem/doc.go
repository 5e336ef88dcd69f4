// Package gatemem runs the GateMem benchmark (arXiv 2606.18829) against
// cmem through its public HTTP API only, following the benchmark's
// protocol: a fresh cmem per episode, the episode's principals registered
// as users and its relationships imported as grants, turns written in order
// as their speakers, and each checkpoint asked as its asker right after its
// turn. It writes GateMem's prediction format so that the benchmark's own
// scorer (bench/scripts/score_predictions.py) scores the run, and prints
// U, A, F, over-refusal and MGS beside the published leaderboard rows.
//
// The harness reads only what the protocol shows an agent: principals,
// relationships, turns and the checkpoint's asker and query text. The
// scoring fields of a checkpoint (query_type, attack_type, expected_action,
// judge_spec, leak_targets) are not even decoded (see Checkpoint).
package gatemem
