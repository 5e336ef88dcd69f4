package gatemem

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

// Episode is one GateMem episode: who takes part, how they relate, and
// what they say, in order.
type Episode struct {
	ID       string `json:"episode_id"`
	Domain   string `json:"domain"`
	Entities struct {
		Principals    []Principal      `json:"principals"`
		Relationships []map[string]any `json:"relationships"`
	} `json:"entities"`
	Turns []Turn `json:"turns"`
}

// Principal is a participant of an episode.
type Principal struct {
	ID          string `json:"principal_id"`
	Role        string `json:"role"`
	DisplayName string `json:"display_name"`
}

// Turn is one utterance of an episode.
type Turn struct {
	ID        string `json:"turn_id"`
	Timestamp string `json:"timestamp"`
	Speaker   struct {
		ID   string `json:"principal_id"`
		Role string `json:"role"`
	} `json:"speaker"`
	Text string `json:"text"`
}

// Checkpoint is what the protocol shows an agent of a checkpoint: which
// episode, after which turn, who asks and what. The scoring fields are
// deliberately absent, so the harness cannot use them.
type Checkpoint struct {
	ID        string `json:"checkpoint_id"`
	EpisodeID string `json:"episode_id"`
	AsOfTurn  string `json:"as_of_turn_id"`
	Asker     struct {
		ID   string `json:"principal_id"`
		Role string `json:"role"`
	} `json:"asker"`
	Query string `json:"query_text"`
}

// readJSONL decodes one value of T per non-empty line of path.
func readJSONL[T any](path string) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		out = append(out, v)
	}
	return out, sc.Err()
}
