package pipeline

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A bulk write waits while another holds the only turn; a write of a few rows does not.
func TestBulkWritesTakeTurnsAndSmallOnesDoNotWait(t *testing.T) {
	a := &Service{BulkWriters: 1}
	ctx := context.Background()
	firstIn, releaseFirst := make(chan struct{}), make(chan struct{})
	go func() {
		_ = a.bulkWrite(ctx, 200, func() error {
			close(firstIn)
			<-releaseFirst
			return nil
		})
	}()
	<-firstIn

	secondIn := make(chan struct{})
	go func() {
		_ = a.bulkWrite(ctx, bulkRows+1, func() error { close(secondIn); return nil })
	}()
	small := make(chan struct{})
	go func() {
		_ = a.bulkWrite(ctx, bulkRows, func() error { close(small); return nil })
	}()
	select {
	case <-small:
	case <-time.After(10 * time.Second):
		t.Fatal("a write of a few rows waited for a bulk write")
	}
	select {
	case <-secondIn:
		t.Fatal("a second bulk write ran while the first held the only turn")
	default:
	}
	close(releaseFirst)
	select {
	case <-secondIn:
	case <-time.After(10 * time.Second):
		t.Fatal("the second bulk write did not run once the first ended")
	}
}

// However many batches write at once, no more than BulkWriters bulk writes run together.
func TestBulkWritesNeverExceedTheirTurns(t *testing.T) {
	for _, turns := range []int{1, 3} {
		a := &Service{BulkWriters: turns}
		var running, most atomic.Int32
		var wg sync.WaitGroup
		for range 24 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_ = a.bulkWrite(context.Background(), 200, func() error {
					n := running.Add(1)
					for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
					}
					time.Sleep(2 * time.Millisecond)
					running.Add(-1)
					return nil
				})
			}()
		}
		wg.Wait()
		if got := most.Load(); got > int32(turns) {
			t.Fatalf("BulkWriters %d: %d bulk writes ran at once", turns, got)
		}
	}
}

// A write waiting for its turn gives up when its context ends, without running.
func TestBulkWriteWaitingEndsWithItsContext(t *testing.T) {
	a := &Service{BulkWriters: 1}
	held, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	go func() {
		_ = a.bulkWrite(context.Background(), 200, func() error { close(held); <-release; return nil })
	}()
	<-held
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ran := false
	err := a.bulkWrite(ctx, 200, func() error { ran = true; return nil })
	if !errors.Is(err, context.Canceled) || ran {
		t.Fatalf("waiting write with its context ended: err %v, ran %v", err, ran)
	}
}
