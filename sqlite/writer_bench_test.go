package sqlite

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// BenchmarkFinishInvocation measures what the store adds to an agent's
// call, one caller at a time: the pending state queued, then the final
// state and its audit row handed in and waited for. "commit" waits for
// the commit (FinishInvocation, and QueueFinish without a journal);
// "journal" waits for the journal append, as QueueFinish does. ns/op
// includes the commits in the background; p50-µs is what a caller waits.
func BenchmarkFinishInvocation(b *testing.B) {
	for _, v := range []struct {
		name   string
		finish func(s *InvocationStore, ctx context.Context, inv domain.Invocation, rec domain.AuditRecord) error
	}{
		{"commit", (*InvocationStore).FinishInvocation},
		{"journal", func(s *InvocationStore, ctx context.Context, inv domain.Invocation, rec domain.AuditRecord) error {
			return s.QueueFinish(inv, rec, func(err error) { b.Error(err) })(ctx)
		}},
	} {
		b.Run(v.name, func(b *testing.B) {
			s := openBenchDB(b).InvocationStore()
			ctx := b.Context()
			b.ReportAllocs()
			took := make([]time.Duration, b.N)
			for i := range b.N {
				done := finished(scopeA, fmt.Sprintf("call-%d", i), int64(i))
				done.Version = 2
				pending := done
				pending.Status, pending.Result, pending.ResultSize, pending.Version = domain.InvocationPending, nil, 0, 1
				s.QueueInvocation(pending, nil)
				t0 := time.Now()
				if err := v.finish(s, ctx, done, auditOf(done)); err != nil {
					b.Fatal(err)
				}
				took[i] = time.Since(t0)
			}
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)/2])/float64(time.Microsecond), "p50-µs")
		})
	}
}

func openBenchDB(b *testing.B) *DB {
	b.Helper()
	db, err := Open(b.Context(), b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}
