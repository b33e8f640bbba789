package ratelimit

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Redis is a Store in Redis (HERALD_REDIS_URL): each operation is one Lua script run
// atomically by the server (EVALSHA), with the server's clock, so no round trip waits on
// a lock. Keys start with Prefix and expire once idle. Ids in keys are those of one
// Herald database: deployments sharing a Redis need a database (or Prefix) each.
type Redis struct {
	c *redis.Client
	// Prefix starts every key ("herald:" by default).
	Prefix string
}

// NewRedis connects to the Redis at url (redis://[user:password@]host:port[/db], or
// rediss:// for TLS) and checks the connection.
func NewRedis(ctx context.Context, url string) (*Redis, error) {
	opts, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("HERALD_REDIS_URL is not a valid Redis URL: %w", err)
	}
	c := redis.NewClient(opts)
	if err := c.Ping(ctx).Err(); err != nil {
		c.Close()
		return nil, fmt.Errorf("redis at %s: %w", opts.Addr, err)
	}
	return &Redis{c: c, Prefix: "herald:"}, nil
}

// Close closes the connections.
func (r *Redis) Close() error { return r.c.Close() }

// Name implements Store.
func (*Redis) Name() string { return "redis" }

// takeScript is the token bucket: KEYS[1] a hash {tokens, at}; ARGV rate, burst. It
// returns {took (0/1), tokens left as a string}.
var takeScript = redis.NewScript(`
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local v = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(v[1])
local at = tonumber(v[2])
if tokens == nil or at == nil then
  tokens = burst
  at = now
end
if now > at then
  tokens = math.min(burst, tokens + (now - at) * rate)
  at = now
end
local took = 0
if tokens >= 1 then
  tokens = tokens - 1
  took = 1
end
redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'at', string.format('%.17g', at))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return {took, string.format('%.17g', tokens)}
`)

// reserveScript is the counter: KEYS[1]; ARGV n, floor, limit, ttl in ms. It returns the
// new value, or -1 when refused.
var reserveScript = redis.NewScript(`
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
local floor = tonumber(ARGV[2])
if floor > n then n = floor end
n = n + tonumber(ARGV[1])
if n > tonumber(ARGV[3]) then return -1 end
redis.call('SET', KEYS[1], n, 'PX', ARGV[4])
return n
`)

// Take implements Store.
func (r *Redis) Take(ctx context.Context, key string, rate, burst float64) (bool, time.Duration, error) {
	res, err := takeScript.Run(ctx, r.c, []string{r.Prefix + "rl:" + key}, rate, burst).Slice()
	if err != nil {
		return false, 0, storeErr("redis", err)
	}
	if len(res) != 2 {
		return false, 0, storeErr("redis", errStore)
	}
	took, _ := res[0].(int64)
	if took == 1 {
		return true, 0, nil
	}
	s, _ := res[1].(string)
	tokens, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return false, 0, storeErr("redis", errStore)
	}
	return false, waitFor(tokens, rate), nil
}

// Reserve implements Store.
func (r *Redis) Reserve(ctx context.Context, key string, n, floor, limit int64, ttl time.Duration) (bool, error) {
	ms := int64(math.Ceil(float64(ttl) / float64(time.Millisecond)))
	v, err := reserveScript.Run(ctx, r.c, []string{r.Prefix + "q:" + key}, n, floor, limit, max(ms, 1)).Int64()
	if err != nil {
		return false, storeErr("redis", err)
	}
	return v >= 0, nil
}

// leaseScript is the semaphore: KEYS[1] a sorted set of holders scored by the expiry of
// their lease (server time, ms); ARGV holder, limit, ttl in ms. It drops the expired
// leases, renews holder's or adds it when fewer than limit remain, and returns 1, else 0.
var leaseScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return 0
end
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[1], tonumber(last[2]) + 1000)
return 1
`)

// Acquire implements Store.
func (r *Redis) Acquire(ctx context.Context, key, holder string, limit int64, ttl time.Duration) (bool, error) {
	v, err := leaseScript.Run(ctx, r.c, []string{r.Prefix + "lease:" + key}, holder, limit, max(ttl.Milliseconds(), 1)).Int64()
	if err != nil {
		return false, storeErr("redis", err)
	}
	return v == 1, nil
}

// renewScript extends a holder's lease: KEYS[1] the sorted set; ARGV holder, ttl in ms.
// It returns 1, or 0 when the holder has no live lease.
var renewScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local s = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not s or tonumber(s) < now then
  return 0
end
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[2]), ARGV[1])
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[1], tonumber(last[2]) + 1000)
return 1
`)

// Renew implements Store.
func (r *Redis) Renew(ctx context.Context, key, holder string, ttl time.Duration) (bool, error) {
	v, err := renewScript.Run(ctx, r.c, []string{r.Prefix + "lease:" + key}, holder, max(ttl.Milliseconds(), 1)).Int64()
	if err != nil {
		return false, storeErr("redis", err)
	}
	return v == 1, nil
}

// Release implements Store.
func (r *Redis) Release(ctx context.Context, key, holder string) error {
	if err := r.c.ZRem(ctx, r.Prefix+"lease:"+key, holder).Err(); err != nil {
		return storeErr("redis", err)
	}
	return nil
}
