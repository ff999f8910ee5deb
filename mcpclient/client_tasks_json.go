package mcpclient

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// errNotObject is params or a result that is not a JSON object.
var errNotObject = errors.New("not a JSON object")

// splitTask takes the task key out of a request's params: rest is the
// params without it, as the person or the client they are put to must see
// them (a client without tasks must not be asked for one), and ttl the
// life the server asked for. Every other member keeps its bytes and order.
func splitTask(params json.RawMessage) (rest json.RawMessage, ttl time.Duration, isTask bool, err error) {
	members, err := objectMembers(params)
	if errors.Is(err, errNotObject) {
		return params, 0, false, nil
	}
	if err != nil {
		return nil, 0, false, err
	}
	i := slices.IndexFunc(members, func(m member) bool { return m.key == "task" })
	if i < 0 {
		return params, 0, false, nil
	}
	var task struct {
		TTL *float64 `json:"ttl"`
	}
	if err := json.Unmarshal(members[i].value, &task); err != nil {
		return nil, 0, false, fmt.Errorf("task: %w", err)
	}
	rest, err = encodeMembers(slices.Delete(members, i, i+1))
	return rest, taskTTL(task.TTL), true, err
}

// withRelatedTask adds the related-task entry to a result's _meta, so the
// server knows which task the result is for.
func withRelatedTask(res json.RawMessage, taskID string) (json.RawMessage, error) {
	members, err := objectMembers(res)
	if err != nil {
		return nil, fmt.Errorf("the task's result: %w", err)
	}
	meta := map[string]json.RawMessage{}
	i := slices.IndexFunc(members, func(m member) bool { return m.key == "_meta" })
	if i >= 0 {
		if err := json.Unmarshal(members[i].value, &meta); err != nil {
			return nil, fmt.Errorf("the task's result _meta: %w", err)
		}
		if meta == nil { // "_meta": null leaves the map nil
			meta = map[string]json.RawMessage{}
		}
	}
	related, err := json.Marshal(map[string]string{"taskId": taskID})
	if err != nil {
		return nil, err
	}
	meta[mcp.RelatedTaskMetaKey] = related
	b, err := json.Marshal(meta)
	if err != nil {
		return nil, err
	}
	if i >= 0 {
		members[i].value = b
	} else {
		members = append(members, member{key: "_meta", value: b})
	}
	return encodeMembers(members)
}

// member is one member of a JSON object, its value as written.
type member struct {
	key   string
	value json.RawMessage
}

// objectMembers splits a JSON object into its members in order.
func objectMembers(obj json.RawMessage) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	tok, err := dec.Token()
	if err != nil {
		return nil, errNotObject
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errNotObject
	}
	var members []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		members = append(members, member{key: key, value: v})
	}
	return members, nil
}

// encodeMembers writes members back as one JSON object.
func encodeMembers(members []member) (json.RawMessage, error) {
	out := []byte{'{'}
	for i, m := range members {
		if i > 0 {
			out = append(out, ',')
		}
		k, err := marshalNoEscape(m.key)
		if err != nil {
			return nil, err
		}
		out = append(append(append(out, k...), ':'), m.value...)
	}
	return append(out, '}'), nil
}

// marshalNoEscape encodes v as JSON leaving "<", ">" and "&" as they are,
// as the server wrote them.
func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
