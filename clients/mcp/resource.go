package mcp

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cmem/cmem/clients/httpclient"
)

// jsonResource is v as one JSON text content of uri.
func jsonResource(uri string, v any) (*sdk.ReadResourceResult, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(b)}}}, nil
}

// CodeRefused is the JSON-RPC error code of a resource read cmem refused
// (401, 403): -32001, in the range JSON-RPC leaves to servers, so a client
// can tell "not allowed" from "no such resource" and from a failure.
const CodeRefused = -32001

// readError is err of a resource read as a JSON-RPC error with a code a
// client can act on (a bare error would answer code 0): invalid params for
// a 400 or 404, CodeRefused for a 401 or 403, internal error otherwise.
// Data carries the URI and cmem's status and error code.
func readError(uri string, err error) error {
	var he *httpclient.Error
	if !errors.As(err, &he) {
		return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error(), Data: rpcData(uri, 0, "")}
	}
	code := int64(jsonrpc.CodeInternalError)
	switch he.Status {
	case http.StatusBadRequest, http.StatusNotFound:
		code = jsonrpc.CodeInvalidParams
	case http.StatusUnauthorized, http.StatusForbidden:
		code = CodeRefused
	}
	return &jsonrpc.Error{Code: code, Message: err.Error(), Data: rpcData(uri, he.Status, he.Code)}
}

func rpcData(uri string, status int, code string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"uri": uri, "status": status, "code": code})
	return b
}
