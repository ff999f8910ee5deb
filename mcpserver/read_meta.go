package mcpserver

import (
	"context"
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// mcp-go's resources/read handlers return only the contents, and mcp-go
// builds the result around them, so a server's _meta on the result would
// be lost. A slot rides on the request from a before-hook to the handler
// (mcp-go hands the handler a copy of the request whose _meta points at
// the same object) and back to an after-hook, which sets the result's
// _meta before mcp-go encodes it. The slot's key cannot come from a
// client's JSON, since it is never sent upstream either.
const readSlotKey = "\x00switchboard.readSlot"

// readSlot carries one read's result _meta from handler to after-hook.
type readSlot struct{ meta *mcp.Meta }

// addReadMetaHooks installs the two hooks on hooks.
func addReadMetaHooks(hooks *server.Hooks) {
	hooks.AddBeforeReadResource(func(_ context.Context, _ any, req *mcp.ReadResourceRequest) {
		if req.Params.Meta == nil {
			req.Params.Meta = &mcp.Meta{}
		}
		if req.Params.Meta.AdditionalFields == nil {
			req.Params.Meta.AdditionalFields = map[string]any{}
		}
		req.Params.Meta.AdditionalFields[readSlotKey] = &readSlot{}
	})
	hooks.AddAfterReadResource(func(_ context.Context, _ any, req *mcp.ReadResourceRequest, res *mcp.ReadResourceResult) {
		if slot := slotOf(req); slot != nil && slot.meta != nil && res != nil {
			res.Meta = slot.meta
		}
	})
}

func slotOf(req *mcp.ReadResourceRequest) *readSlot {
	if req == nil || req.Params.Meta == nil {
		return nil
	}
	slot, _ := req.Params.Meta.AdditionalFields[readSlotKey].(*readSlot)
	return slot
}

// keepReadMeta puts the server's result _meta into the request's slot.
func keepReadMeta(req *mcp.ReadResourceRequest, raw json.RawMessage) error {
	slot := slotOf(req)
	if slot == nil {
		return nil
	}
	var top struct {
		Meta json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(raw, &top); err != nil {
		return err
	}
	meta, err := rawMeta(top.Meta)
	if err != nil {
		return err
	}
	slot.meta = meta
	return nil
}
