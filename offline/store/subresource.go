package store

import (
	"context"
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// subResourceClient serves Status() and SubResource(name). Only "status"
// can be written; every other use returns an error wrapping
// errors.ErrUnsupported.
type subResourceClient struct {
	store *Store
	name  string
}

// Status returns the writer for the status subresource.
func (s *Store) Status() client.SubResourceWriter {
	return s.SubResource("status")
}

// SubResource returns a client for the named subresource; only "status"
// supports Update and Patch.
func (s *Store) SubResource(name string) client.SubResourceClient {
	return &subResourceClient{store: s, name: name}
}

func (c *subResourceClient) unsupported(op string) error {
	return fmt.Errorf("%s of subresource %q is not supported by the offline store: %w", op, c.name, errors.ErrUnsupported)
}

// Get is unsupported: no subresource in gwsim's scheme has a readable body.
func (c *subResourceClient) Get(_ context.Context, _, _ client.Object, _ ...client.SubResourceGetOption) error {
	return c.unsupported("get")
}

// Create is unsupported.
func (c *subResourceClient) Create(_ context.Context, _, _ client.Object, _ ...client.SubResourceCreateOption) error {
	return c.unsupported("create")
}

// Update writes obj's status (or the SubResourceBody's, when given) and
// nothing else.
func (c *subResourceClient) Update(_ context.Context, obj client.Object, opts ...client.SubResourceUpdateOption) error {
	if c.name != "status" {
		return c.unsupported("update")
	}
	o := client.SubResourceUpdateOptions{}
	o.ApplyOptions(opts)
	if o.SubResourceBody != nil {
		obj = o.SubResourceBody
	}
	return c.store.update(obj, true, o.DryRun)
}

// Patch patches the stored object and keeps only the resulting status.
func (c *subResourceClient) Patch(_ context.Context, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
	if c.name != "status" {
		return c.unsupported("patch")
	}
	o := client.SubResourcePatchOptions{}
	o.ApplyOptions(opts)
	if o.SubResourceBody != nil {
		obj = o.SubResourceBody
	}
	return c.store.patch(obj, patch, true, o.DryRun)
}

// Apply is server-side apply, which the offline store does not implement.
func (c *subResourceClient) Apply(_ context.Context, _ runtime.ApplyConfiguration, _ ...client.SubResourceApplyOption) error {
	return errApplyUnsupported()
}
