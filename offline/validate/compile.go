package validate

import (
	"fmt"
	"sync"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"

	"github.com/gwsim/gwsim/internal/fastpath/admission"
)

// compiled is everything the API server builds from one version of a CRD
// to serve it: the structural schema (with its defaults pruned, as the
// server does), the OpenAPI schema validator and the CEL validator.
type compiled struct {
	structural      *structuralschema.Structural
	schemaValidator apiservervalidation.SchemaValidator
	// cel is nil when the version has no x-kubernetes-validations.
	cel *libCEL
	// namespaced is the CRD's scope.
	namespaced bool
	// fast is the memoised CEL checker (celfast.go), built on first use.
	fast      *admission.CEL
	fastOnce  sync.Once
	fastState compileState
	// cache is the cache c belongs to, whose count of compilations
	// under way includes c's celFast.
	cache *compileCache
	// walk is the schema compiled for the fast admission walk.
	walk *admission.WalkNode
	// defaults is the schema reduced to its defaults, for Default.
	defaults *admission.Defaults
}

// compileVersion builds version's validators from crd, as the API server's
// CRD handler does when it starts serving the CRD. ok is false when crd
// does not serve version.
func compileVersion(crd *apiextensionsv1.CustomResourceDefinition, version string) (*compiled, bool, error) {
	var v *apiextensionsv1.CustomResourceDefinitionVersion
	for i := range crd.Spec.Versions {
		if crd.Spec.Versions[i].Name == version && crd.Spec.Versions[i].Served {
			v = &crd.Spec.Versions[i]
		}
	}
	if v == nil {
		return nil, false, nil
	}
	if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
		return nil, false, fmt.Errorf("bug: CRD %s version %s has no schema", crd.Name, version)
	}
	var internal apiextensions.CustomResourceValidation
	if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(v.Schema, &internal, nil); err != nil {
		return nil, false, fmt.Errorf("bug: converting CRD %s version %s: %w", crd.Name, version, err)
	}
	s, err := structuralschema.NewStructural(internal.OpenAPIV3Schema)
	if err != nil {
		return nil, false, fmt.Errorf("bug: CRD %s version %s is not structural: %w", crd.Name, version, err)
	}
	if err := structuraldefaulting.PruneDefaults(s); err != nil {
		return nil, false, fmt.Errorf("bug: pruning the defaults of CRD %s version %s: %w", crd.Name, version, err)
	}
	sv, openapi, err := apiservervalidation.NewSchemaValidator(internal.OpenAPIV3Schema)
	if err != nil {
		return nil, false, fmt.Errorf("bug: schema validator of CRD %s version %s: %w", crd.Name, version, err)
	}
	c := &compiled{structural: s, schemaValidator: sv, namespaced: crd.Spec.Scope == apiextensionsv1.NamespaceScoped,
		walk: admission.CompileWalk(s, openapi), defaults: admission.CompileDefaults(s)}
	// The API server compiles every rule when it starts serving the CRD and
	// keeps the programs; gwsim compiles them on first need (libCEL).
	c.cel = newLibCEL(s)
	return c, true, nil
}

// celCheck returns c's fast CEL checker, compiling it on first use; nil
// when the version has no rules.
func (c *compiled) celCheck() *admission.CEL {
	c.fastOnce.Do(func() {
		c.fastState.run(c.cache, func() { c.fast = admission.NewCEL(c.structural) })
	})
	return c.fast
}
