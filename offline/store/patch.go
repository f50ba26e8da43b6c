package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Patch applies a JSON patch, JSON merge patch (client.MergeFrom) or
// strategic merge patch to the stored object, then writes it as Update
// would: status is kept when the kind has a status subresource and
// generation moves when the spec changes. A patch that leaves
// resourceVersion unset applies unconditionally; one that sets it
// (client.MergeFromWithOptimisticLock) must match. Patching is the one
// operation that costs a JSON round trip of the object.
func (s *Store) Patch(_ context.Context, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
	o := client.PatchOptions{}
	o.ApplyOptions(opts)
	return s.patch(obj, patch, false, o.DryRun)
}

// Apply is server-side apply, which the offline store does not implement.
func (s *Store) Apply(_ context.Context, _ runtime.ApplyConfiguration, _ ...client.ApplyOption) error {
	return errApplyUnsupported()
}

func errApplyUnsupported() error {
	return fmt.Errorf("server-side apply is not supported by the offline store: %w", errors.ErrUnsupported)
}

// patch is Patch (status false) and Status().Patch (status true).
func (s *Store) patch(obj client.Object, patch client.Patch, status bool, dryRun []string) error {
	if t := patch.Type(); t == types.ApplyPatchType || t == types.ApplyCBORPatchType {
		return errApplyUnsupported()
	}
	return s.write(obj, dryRun, func(k *kind) error { return s.patchKind(k, obj, patch, status) })
}

// patchKind is patch on obj's kind k; s.mu must be held.
func (s *Store) patchKind(k *kind, obj client.Object, patch client.Patch, status bool) error {
	data, err := patch.Data(obj)
	if err != nil {
		return err
	}
	old, err := k.existing(obj)
	if err != nil {
		return err
	}
	in, err := k.applyPatch(old, patch.Type(), data)
	if err != nil {
		return err
	}
	if in.GetResourceVersion() == "" {
		in.SetResourceVersion(old.GetResourceVersion())
	}
	next, err := k.commit(old, in, status, s.nextResourceVersion)
	if err != nil {
		clearTypeMeta(obj)
		return err
	}
	writeBack(obj, next)
	return nil
}

// applyPatch returns a new object: old with the patch applied. Unknown patch
// types get the fake client's error.
func (k *kind) applyPatch(old client.Object, pt types.PatchType, data []byte) (client.Object, error) {
	original, err := json.Marshal(old)
	if err != nil {
		return nil, err
	}
	var patched []byte
	switch pt {
	case types.JSONPatchType:
		p, err := jsonpatch.DecodePatch(data)
		if err != nil {
			return nil, err
		}
		patched, err = p.Apply(original)
		if err != nil {
			return nil, err
		}
	case types.MergePatchType:
		patched, err = jsonpatch.MergePatch(original, data)
	case types.StrategicMergePatchType:
		patched, err = strategicpatch.StrategicMergePatch(original, data, reflect.New(k.goType).Interface())
	default:
		return nil, fmt.Errorf("%s PatchType is not supported", pt)
	}
	if err != nil {
		return nil, err
	}
	in := reflect.New(k.goType).Interface().(client.Object)
	if err := json.Unmarshal(patched, in); err != nil {
		return nil, err
	}
	return in, nil
}
