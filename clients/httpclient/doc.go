// Package httpclient is a Go client of cmem's HTTP API: the one the cmem
// CLI's API commands and the MCP server (package mcp) both call cmem with,
// and the one a Go program embeds to use cmem as memory.
//
// A Client acts as one caller, the owner of its bearer token (a user, or
// the admin). Do sends any request of the API (see the OpenAPI document
// at /v1/openapi.json) and decodes a 2xx answer; RegisterUser,
// WriteFragment and MemoryView are typed shortcuts for the calls most
// programs make.
//
// An answer other than 2xx is an *Error carrying the HTTP status and the
// API's code and message; errors.Is matches it against package domain's
// errors (domain.ErrForbidden, domain.ErrNotFound, …: the ones the gateway
// maps to HTTP), so a Go program tells "not allowed" from "does not exist"
// without reading status codes.
package httpclient
