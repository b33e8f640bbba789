package realtime

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/heraldhq/herald/internal/inbox"
)

// Message is one event as clients receive it: a name and its JSON payload, encoded once and
// shared by every connection it goes to.
type Message struct {
	Name string
	Data json.RawMessage
}

// Store is what the hub reads to turn events (ids) into what clients receive.
type Store interface {
	ByIDs(ctx context.Context, appID int64, ids []int64) ([]inbox.Owned, error)
	UnreadCounts(ctx context.Context, appID int64, userIDs []int64) (map[int64]int64, error)
}

type userKey struct{ app, user int64 }

// Hub holds this process's realtime connections, indexed by app and user, and turns bus
// events into messages for them. Sending never blocks: each connection has a bounded queue,
// and a connection whose queue is full is closed (its client reconnects and resyncs).
type Hub struct {
	store Store
	queue int
	log   *slog.Logger

	mu     sync.RWMutex
	users  map[userKey]map[*Client]struct{}
	closed bool

	overflows atomic.Int64
	// conns counts attached connections, so the metrics gauge reads it without the lock.
	conns atomic.Int64
}

// NewHub returns a hub reading through store, with queue messages of room per connection.
func NewHub(store Store, queue int, log *slog.Logger) *Hub {
	return &Hub{store: store, queue: max(queue, 1), log: log, users: map[userKey]map[*Client]struct{}{}}
}

// ErrClosed is returned by Attach once the hub has shut down.
var ErrClosed = errors.New("realtime: shutting down")

// Attach registers a connection of a user (internal id and identifier) of an app. onClose,
// when set, runs once when the connection is closed from any side; transports pass a
// function that closes the socket, so an overflowing client is cut off at once.
func (h *Hub) Attach(appID, userID int64, identifier string, onClose func()) (*Client, error) {
	c := &Client{AppID: appID, UserID: userID, User: identifier, hub: h, onClose: onClose,
		queue: make(chan *Message, h.queue), done: make(chan struct{})}
	k := userKey{appID, userID}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, ErrClosed
	}
	if h.users[k] == nil {
		h.users[k] = map[*Client]struct{}{}
	}
	h.users[k][c] = struct{}{}
	h.conns.Add(1)
	return c, nil
}

func (h *Hub) detach(c *Client) {
	k := userKey{c.AppID, c.UserID}
	h.mu.Lock()
	defer h.mu.Unlock()
	if set := h.users[k]; set != nil {
		if _, ok := set[c]; ok {
			h.conns.Add(-1)
		}
		delete(set, c)
		if len(set) == 0 {
			delete(h.users, k)
		}
	}
}

// Stats describe the hub at one moment.
type Stats struct {
	Connections, Users int
	// Overflows counts connections closed because they fell behind.
	Overflows int64
}

// Stats returns the current counts.
func (h *Hub) Stats() Stats {
	h.mu.RLock()
	defer h.mu.RUnlock()
	s := Stats{Users: len(h.users), Overflows: h.overflows.Load()}
	for _, set := range h.users {
		s.Connections += len(set)
	}
	return s
}

// Connections is the number of open connections, read without locking (the metrics
// gauge calls it at every scrape).
func (h *Hub) Connections() int64 { return h.conns.Load() }

// Close closes every connection and refuses new ones.
func (h *Hub) Close() {
	h.mu.Lock()
	h.closed = true
	var all []*Client
	for _, set := range h.users {
		for c := range set {
			all = append(all, c)
		}
	}
	h.mu.Unlock()
	for _, c := range all {
		c.Close()
	}
}

// connected reports whether the hub has a connection of the user.
func (h *Hub) connected(app, user int64) bool {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.users[userKey{app, user}]) > 0
}

// send offers a message to every connection of a user, closing those that are full.
func (h *Hub) send(app, user int64, m *Message) {
	h.mu.RLock()
	set := h.users[userKey{app, user}]
	targets := make([]*Client, 0, len(set))
	for c := range set {
		targets = append(targets, c)
	}
	h.mu.RUnlock()
	for _, c := range targets {
		if !c.offer(m) {
			h.overflows.Add(1)
			h.log.Warn("realtime connection fell behind; closing it", "app", app, "user", c.User, "queue", h.queue)
			c.Close()
		}
	}
}

// Client is one realtime connection of a user. The transport writes what Messages yields
// until Done is closed.
type Client struct {
	AppID, UserID int64
	// User is the user's identifier.
	User string

	hub     *Hub
	queue   chan *Message
	done    chan struct{}
	once    sync.Once
	onClose func()
}

// Messages yields the messages to write, in order.
func (c *Client) Messages() <-chan *Message { return c.queue }

// Done is closed when the connection must end: closed by the transport, overflowed, or
// the hub shut down.
func (c *Client) Done() <-chan struct{} { return c.done }

// Close detaches the connection; it is safe to call more than once.
func (c *Client) Close() {
	c.once.Do(func() {
		close(c.done)
		c.hub.detach(c)
		if c.onClose != nil {
			c.onClose()
		}
	})
}

// offer queues m without blocking; false means the queue is full.
func (c *Client) offer(m *Message) bool {
	select {
	case <-c.done:
		return true
	default:
	}
	select {
	case c.queue <- m:
		return true
	default:
		return false
	}
}
