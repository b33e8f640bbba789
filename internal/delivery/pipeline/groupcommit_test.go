package pipeline

import (
	"context"
	"sync"
	"testing"
	"time"
)

// The records of many batches sending at once go in a few commits, each record once.
func TestRecordsOfConcurrentBatchesShareCommits(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	var commits [][]int
	g := startGroupCommit(context.Background(), func(_ context.Context, vs []int) {
		<-release // the first commit is being written while the others arrive
		mu.Lock()
		commits = append(commits, vs)
		mu.Unlock()
	})
	var wg sync.WaitGroup
	for i := range 100 {
		wg.Add(1)
		go func() { defer wg.Done(); g.add(i) }()
	}
	// One record is in the commit being written; the other 99 wait for the next.
	for deadline := time.Now().Add(10 * time.Second); len(g.reqs) < 99; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d records queued", len(g.reqs))
		}
	}
	close(release)
	wg.Wait()
	seen := map[int]int{}
	for _, c := range commits {
		for _, v := range c {
			seen[v]++
		}
	}
	for i := range 100 {
		if seen[i] != 1 {
			t.Fatalf("record %d committed %d times", i, seen[i])
		}
	}
	if len(commits) > 3 {
		t.Fatalf("100 records arriving together took %d commits", len(commits))
	}

	a := &Service{}
	sent, attempts := a.recorders()
	if again, _ := a.recorders(); again != sent || attempts == nil {
		t.Fatal("each batch got its own recorder; the process's batches must share one")
	}
}
