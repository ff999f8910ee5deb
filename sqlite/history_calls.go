package sqlite

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

var _ domain.CallStats = (*InvocationStore)(nil)

// CallsPerMinute counts the scope's calls that started in [since, until)
// and match f, per UTC minute by status; only minutes with calls, oldest
// first. It reads the started_at range of the newest-first index (or the
// one of f's field), so an hour costs the calls of that hour.
func (s *InvocationStore) CallsPerMinute(ctx context.Context, scope domain.Scope, since, until time.Time, f domain.InvocationFilter) ([]domain.MinuteOutcomes, error) {
	if err := s.db.writer.flush(ctx); err != nil {
		return nil, fmt.Errorf("count calls per minute in %s: %w", scopeName(scope), err)
	}
	f.StartedFrom, f.StartedBefore = laterOf(f.StartedFrom, since), earlierOf(f.StartedBefore, until)
	where, args := filterWhere(scope, f)
	rows, err := s.db.read.QueryContext(ctx, `SELECT started_at / 60000 AS minute, status, count(*) FROM invocations
		WHERE `+strings.Join(where, " AND ")+`
		GROUP BY minute, status ORDER BY minute`, args...)
	if err != nil {
		return nil, fmt.Errorf("count calls per minute in %s: %w", scopeName(scope), err)
	}
	defer rows.Close()
	var out []domain.MinuteOutcomes
	for rows.Next() {
		var minute int64
		var status domain.InvocationStatus
		var n int
		if err := rows.Scan(&minute, &status, &n); err != nil {
			return nil, fmt.Errorf("count calls per minute in %s: %w", scopeName(scope), err)
		}
		start := time.UnixMilli(minute * 60000).UTC()
		if len(out) == 0 || !out[len(out)-1].Start.Equal(start) {
			out = append(out, domain.MinuteOutcomes{Start: start})
		}
		m := &out[len(out)-1]
		switch status {
		case domain.InvocationSuccess:
			m.Success += n
		case domain.InvocationError:
			m.Error += n
		case domain.InvocationCancelled:
			m.Cancelled += n
		case domain.InvocationDenied:
			m.Denied += n
		default:
			m.Other += n
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("count calls per minute in %s: %w", scopeName(scope), err)
	}
	return out, nil
}

// laterOf returns the later of two bounds, a zero one being no bound.
func laterOf(a, b time.Time) time.Time {
	if a.IsZero() || (!b.IsZero() && b.After(a)) {
		return b
	}
	return a
}

// earlierOf returns the earlier of two bounds, a zero one being no bound.
func earlierOf(a, b time.Time) time.Time {
	if a.IsZero() || (!b.IsZero() && b.Before(a)) {
		return b
	}
	return a
}

// CallTimings returns the newest limit answered calls of server that
// started at or after since, oldest first, reading only their times and
// status through the (user, workspace, server, started_at) index.
func (s *InvocationStore) CallTimings(ctx context.Context, scope domain.Scope, server string, since time.Time, limit int) ([]domain.CallTiming, error) {
	if err := s.db.writer.flush(ctx); err != nil {
		return nil, fmt.Errorf("list call timings of %s in %s: %w", server, scopeName(scope), err)
	}
	rows, err := s.db.read.QueryContext(ctx, `SELECT started_at, ended_at, status FROM (
		SELECT started_at, id, ended_at, status FROM invocations
		WHERE user = ? AND workspace = ? AND server = ? AND started_at >= ?
			AND ended_at IS NOT NULL AND status IN (?, ?)
		ORDER BY started_at DESC, id DESC LIMIT ?) ORDER BY started_at, id`,
		scope.User, scope.Workspace, server, since.UnixMilli(),
		string(domain.InvocationSuccess), string(domain.InvocationError), limit)
	if err != nil {
		return nil, fmt.Errorf("list call timings of %s in %s: %w", server, scopeName(scope), err)
	}
	defer rows.Close()
	var out []domain.CallTiming
	for rows.Next() {
		var started, ended int64
		var status domain.InvocationStatus
		if err := rows.Scan(&started, &ended, &status); err != nil {
			return nil, fmt.Errorf("list call timings of %s in %s: %w", server, scopeName(scope), err)
		}
		out = append(out, domain.CallTiming{StartedAt: time.UnixMilli(started), EndedAt: time.UnixMilli(ended), Status: status})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list call timings of %s in %s: %w", server, scopeName(scope), err)
	}
	return out, nil
}
