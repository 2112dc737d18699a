/** The telemetry feature's node layer as other features see it: import from here, not from its files. */
export { loadOtlpExporter } from './otlpMetricsLoader';
