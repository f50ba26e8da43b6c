package translate

import (
	"fmt"
	"strings"

	egv1a1 "github.com/envoyproxy/gateway/api/v1alpha1"
)

// egProxyProblem says why Envoy Gateway refuses EnvoyProxy ep as
// parameters, "" when gwsim finds no reason: its validation of the
// telemetry settings (api/v1alpha1/validation, validateProxyTelemetry and
// validateProxyAccessLog): an access log with the Text format and no
// text, a File sink without file, an OpenTelemetry sink (of access logs or
// metrics) without its openTelemetry settings. The rest of that validation
// (deployment, autoscaling, filter order, cluster stat names, bootstrap)
// is not simulated. Envoy Gateway then refuses the GatewayClass or
// Gateway that takes ep as parameters with InvalidParameters, and a
// refused Gateway gets no listener status.
func egProxyProblem(ep *egv1a1.EnvoyProxy) string {
	t := ep.Spec.Telemetry
	if t == nil {
		return ""
	}
	var errs []string
	if al := t.AccessLog; al != nil && (al.Disable == nil || !*al.Disable) {
		for _, s := range al.Settings {
			if f := s.Format; f != nil && f.Type != nil && *f.Type == egv1a1.ProxyAccessLogFormatTypeText && f.Text == nil {
				errs = append(errs, `unable to configure access log when using Text format but "text" field being empty`)
			}
			for _, sink := range s.Sinks {
				switch {
				case sink.Type == egv1a1.ProxyAccessLogSinkTypeFile && sink.File == nil:
					errs = append(errs, `unable to configure access log when using File sink type but "file" field being empty`)
				case sink.Type == egv1a1.ProxyAccessLogSinkTypeOpenTelemetry && sink.OpenTelemetry == nil:
					errs = append(errs, `unable to configure access log when using OpenTelemetry sink type but "openTelemetry" field being empty`)
				}
			}
		}
	}
	if m := t.Metrics; m != nil {
		for _, sink := range m.Sinks {
			if sink.Type == egv1a1.MetricSinkTypeOpenTelemetry && sink.OpenTelemetry == nil {
				errs = append(errs, "opentelemetry is required if the sink type is OpenTelemetry")
			}
		}
	}
	if len(errs) == 0 {
		return ""
	}
	return fmt.Sprintf("EnvoyProxy %s/%s is invalid: %s", ep.Namespace, ep.Name, strings.Join(errs, "; "))
}
