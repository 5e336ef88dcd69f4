package shred

import (
	"bytes"
	"crypto/cipher"
	"sync"
)

// aeadCacheSize bounds the cipher setups a Sealer keeps; past it the cache
// starts over (a rebuild reads keys roughly in the order they were made,
// so recent keys are what it needs).
const aeadCacheSize = 4096

// aeadCache keeps the AES-GCM setup of each key id, which costs more than
// opening a short field. It never decides whether a key exists: the
// caller asks the keyring for the key on every use (so a destroyed key
// stays destroyed) and the cache only answers for those exact key bytes.
type aeadCache struct {
	mu sync.RWMutex
	m  map[string]cachedAEAD
}

type cachedAEAD struct {
	key  []byte
	aead cipher.AEAD
}

// get returns the setup for key under id, making it when the cache has
// none for these bytes.
func (c *aeadCache) get(id string, key []byte) (cipher.AEAD, error) {
	c.mu.RLock()
	e, ok := c.m[id]
	c.mu.RUnlock()
	if ok && bytes.Equal(e.key, key) {
		return e.aead, nil
	}
	aead, err := newAEAD(key)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= aeadCacheSize {
		c.m = make(map[string]cachedAEAD)
	}
	c.m[id] = cachedAEAD{key: bytes.Clone(key), aead: aead}
	c.mu.Unlock()
	return aead, nil
}

// forget drops id's setup, once its key is known to be gone.
func (c *aeadCache) forget(id string) {
	c.mu.Lock()
	delete(c.m, id)
	c.mu.Unlock()
}
