package domain

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
)

// checkedArgs are a call's arguments as they will be sent, with what the
// card needs to say about them.
type checkedArgs struct {
	args     json.RawMessage
	defaults []string    // pointers filled from the schema's defaults
	mismatch []Violation // violations sent anyway
}

// checkArguments prepares a call's arguments against the tool's input
// schema. A person's or the API's call gets the schema's defaults filled
// in first, then is refused on any violation that remains unless it asked
// to skip validation; a forwarded call is sent exactly as it came, never
// refused. Whatever is sent in spite of a violation records it.
func (s *Invocations) checkArguments(req CallRequest, tool Tool, args json.RawMessage) (checkedArgs, error) {
	out := checkedArgs{args: args}
	v := s.opts.Validator
	if v == nil || len(tool.InputSchema) == 0 {
		return out, nil
	}
	lenient := req.SkipValidation || req.Forwarded
	if !req.Forwarded {
		filled, ptrs, err := v.FillDefaults(tool.InputSchema, args)
		switch {
		case err != nil && !lenient:
			return checkedArgs{}, fmt.Errorf("arguments of %s: %w", req.Tool, err)
		case err == nil && len(ptrs) > 0:
			// Defaults come from the server's schema and may nest deeper
			// than anything a caller was allowed to send.
			if err := CheckJSONDepth(filled, MaxArgumentsDepth); err != nil {
				return checkedArgs{}, err
			}
			out.args, out.defaults = filled, ptrs
		}
	}
	err := v.Validate(tool.InputSchema, out.args)
	var se *SchemaError
	switch {
	case err == nil:
		return out, nil
	case !lenient:
		return checkedArgs{}, fmt.Errorf("arguments of %s: %w", req.Tool, err)
	case errors.As(err, &se):
		out.mismatch = se.Violations
	default:
		// A schema the validator cannot read says nothing about the
		// arguments; a call sent anyway goes out unchecked.
		s.opts.Log.Warn("tool input schema not usable", slog.String("server", req.Server),
			slog.String("tool", req.Tool), slog.Any("error", err))
	}
	return out, nil
}
