// Package mcp serves cmem over the Model Context Protocol, so agent
// frameworks and IDE assistants can use cmem as memory without custom code.
//
// The server is an HTTP client of a running cmem acting as one user (the
// owner of Config.Token): every tool and resource is one call of the HTTP
// API, so the permission checks are exactly the gateway's — an agent the
// user may not use is refused by cmem, and the refusal reaches the MCP
// client as a tool error. It calls cmem through package httpclient, the
// client the cmem CLI uses too.
package mcp
