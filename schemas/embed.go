// Package schemas holds the versioned JSON Schemas of every event cmem writes
// to its log. The files are the public contract for consumers that are not
// cmem; the Go code only embeds them so that publishers and consumers check
// events against exactly the documents that are published.
package schemas

import "embed"

// FS holds envelope.v1.json and events/<type>.v<N>.json for every event type.
// A schema file is never edited incompatibly or renamed: a breaking change is
// a new version file next to the old one.
//
//go:embed envelope.v1.json events/*.json
var FS embed.FS
