{{/* Names and labels. */}}
{{- define "herald.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "herald.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "herald.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The labels of every object: pass (dict "ctx" $ "component" "api"). */}}
{{- define "herald.labels" -}}
helm.sh/chart: {{ include "herald.chart" .ctx }}
{{ include "herald.selectorLabels" . }}
app.kubernetes.io/version: {{ .ctx.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .ctx.Release.Service }}
app.kubernetes.io/part-of: herald
{{- with .ctx.Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* The selector labels: name, instance and component (api, worker, migrate). */}}
{{- define "herald.selectorLabels" -}}
app.kubernetes.io/name: {{ include "herald.name" .ctx }}
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- with .group }}
herald.dev/worker-group: {{ . }}
{{- end }}
{{- end -}}

{{- define "herald.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "herald.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "herald.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}
{{- end -}}

{{/* A secretKeyRef env entry: (dict "name" "HERALD_X" "ref" .Values.secrets.x). */}}
{{- define "herald.secretEnv" -}}
{{- if not (and .ref .ref.name .ref.key) }}
{{- fail (printf "%s needs a Secret reference: { name: <Secret>, key: <key> }" .name) }}
{{- end }}
- name: {{ .name }}
  valueFrom:
    secretKeyRef:
      name: {{ .ref.name | quote }}
      key: {{ .ref.key | quote }}
{{- end -}}

{{/*
The environment of every Herald container (api, worker, doctor, migrate): the plain
settings as values, every secret as a secretKeyRef. Pass (dict "ctx" $ "role" "api").
*/}}
{{- define "herald.env" -}}
{{- $v := .ctx.Values -}}
{{- /* The secret variables of internal/platform/config (secret:"…" tags), by name. */ -}}
{{- $secretLike := "(SECRET|PASSWORD$|TOKEN$|API_KEY$|SIGNING_KEY$|CODEC_KEYS$|DATABASE_URL$|REDIS_URL$)" -}}
{{- $managed := list "HERALD_LOG_FORMAT" "HERALD_DATA_DIR" "HERALD_HTTP_ADDR" "HERALD_METRICS_ADDR" "HERALD_TEMPORAL_ADDRESS" "HERALD_TEMPORAL_NAMESPACE" "HERALD_TASK_QUEUE" "HERALD_TEMPORAL_UI_URL" "HERALD_TEMPORAL_TLS" "HERALD_PUBLIC_URL" "HERALD_WORKER_QUEUES" "HERALD_WORKER_SLOTS" "HERALD_SHUTDOWN_DRAIN" "HERALD_SHUTDOWN_TIMEOUT" "HERALD_TEMPORAL_TLS_CA_FILE" "HERALD_TEMPORAL_TLS_CERT_FILE" "HERALD_TEMPORAL_TLS_KEY_FILE" "HERALD_TEMPORAL_TLS_SERVER_NAME" -}}
{{- range $name, $value := $v.config }}
{{- if not (or (hasPrefix "HERALD_" $name) (hasPrefix "OTEL_" $name) (hasPrefix "GO" $name)) }}
{{- fail (printf "config.%s: only HERALD_*, OTEL_* and GO* variables belong here" $name) }}
{{- end }}
{{- if regexMatch $secretLike $name }}
{{- fail (printf "config.%s is a secret: reference a Secret under secrets.env instead (the chart holds no secret values)" $name) }}
{{- end }}
{{- if has $name $managed }}
{{- fail (printf "config.%s is set by the chart from its own values (publicURL, temporal.*, api.*, worker.*, metrics.*): set it there" $name) }}
{{- end }}
{{- end }}
{{- range $name, $ref := $v.secrets.env }}
{{- if has $name (list "HERALD_SECRET_KEY" "HERALD_DATABASE_URL" "HERALD_METRICS_TOKEN" "HERALD_TEMPORAL_API_KEY") }}
{{- fail (printf "secrets.env.%s has a value of its own: secrets.secretKey, secrets.databaseURL, metrics.serviceMonitor.tokenSecret or temporal.apiKey" $name) }}
{{- end }}
{{- end }}
- name: HERALD_LOG_FORMAT
  value: json
- name: HERALD_DATA_DIR
  value: /var/lib/herald
- name: HERALD_HTTP_ADDR
  value: "0.0.0.0:8080"
- name: HERALD_TEMPORAL_ADDRESS
  value: {{ required "temporal.address is required" $v.temporal.address | quote }}
- name: HERALD_TEMPORAL_NAMESPACE
  value: {{ $v.temporal.namespace | quote }}
- name: HERALD_TASK_QUEUE
  value: {{ $v.temporal.taskQueue | quote }}
{{- with $v.temporal.uiURL }}
- name: HERALD_TEMPORAL_UI_URL
  value: {{ . | quote }}
{{- end }}
{{- with $v.publicURL }}
- name: HERALD_PUBLIC_URL
  value: {{ . | quote }}
{{- end }}
{{- $tls := $v.temporal.tls }}
{{- if $tls.enabled }}
{{- /* TLS even without a file: a frontend certificate of a public CA, Temporal Cloud. */}}
- name: HERALD_TEMPORAL_TLS
  value: "true"
{{- if and (not $tls.secretName) (or $tls.certKey $tls.keyKey) }}
{{- fail "temporal.tls.secretName: the Secret holding the client certificate and key" }}
{{- end }}
{{- if and $tls.secretName $tls.caKey }}
- name: HERALD_TEMPORAL_TLS_CA_FILE
  value: {{ printf "/etc/herald/temporal-tls/%s" $tls.caKey | quote }}
{{- end }}
{{- if and $tls.certKey $tls.keyKey }}
- name: HERALD_TEMPORAL_TLS_CERT_FILE
  value: {{ printf "/etc/herald/temporal-tls/%s" $tls.certKey | quote }}
- name: HERALD_TEMPORAL_TLS_KEY_FILE
  value: {{ printf "/etc/herald/temporal-tls/%s" $tls.keyKey | quote }}
{{- else if or $tls.certKey $tls.keyKey }}
{{- fail "temporal.tls: set both certKey and keyKey for mutual TLS, or neither" }}
{{- end }}
{{- with $tls.serverName }}
- name: HERALD_TEMPORAL_TLS_SERVER_NAME
  value: {{ . | quote }}
{{- end }}
{{- end }}
{{- if $v.metrics.serviceMonitor.enabled }}
- name: HERALD_METRICS_ADDR
  value: {{ printf "0.0.0.0:%v" $v.metrics.port | quote }}
{{- include "herald.secretEnv" (dict "name" "HERALD_METRICS_TOKEN" "ref" $v.metrics.serviceMonitor.tokenSecret) }}
{{- else }}
- name: HERALD_METRICS_ADDR
  value: {{ printf "127.0.0.1:%v" $v.metrics.port | quote }}
{{- end }}
{{- range $name, $value := $v.config }}
- name: {{ $name }}
  value: {{ $value | toString | quote }}
{{- end }}
{{- include "herald.secretEnv" (dict "name" "HERALD_SECRET_KEY" "ref" $v.secrets.secretKey) }}
{{- include "herald.secretEnv" (dict "name" "HERALD_DATABASE_URL" "ref" $v.secrets.databaseURL) }}
{{- if and $v.temporal.apiKey $v.temporal.apiKey.name }}
{{- include "herald.secretEnv" (dict "name" "HERALD_TEMPORAL_API_KEY" "ref" $v.temporal.apiKey) }}
{{- end }}
{{- range $name, $ref := $v.secrets.env }}
{{- include "herald.secretEnv" (dict "name" $name "ref" $ref) }}
{{- end }}
{{- end -}}

{{/* Volumes of every Herald pod: writable /tmp and data dir on a read-only root, TLS files. */}}
{{- define "herald.volumes" -}}
- name: tmp
  emptyDir:
    sizeLimit: 64Mi
- name: data
{{- if .Values.persistence.existingClaim }}
  persistentVolumeClaim:
    claimName: {{ .Values.persistence.existingClaim | quote }}
{{- else }}
  emptyDir:
    sizeLimit: 1Gi
{{- end }}
{{- if and .Values.temporal.tls.enabled .Values.temporal.tls.secretName }}
- name: temporal-tls
  secret:
    secretName: {{ .Values.temporal.tls.secretName | quote }}
    defaultMode: 0440
{{- end }}
{{- end -}}

{{- define "herald.volumeMounts" -}}
- name: tmp
  mountPath: /tmp
- name: data
  mountPath: /var/lib/herald
{{- if and .Values.temporal.tls.enabled .Values.temporal.tls.secretName }}
- name: temporal-tls
  mountPath: /etc/herald/temporal-tls
  readOnly: true
{{- end }}
{{- end -}}

{{/* The doctor init container. */}}
{{- define "herald.doctor" -}}
{{- if .ctx.Values.doctor.enabled }}
initContainers:
  - name: doctor
    image: {{ include "herald.image" .ctx | quote }}
    imagePullPolicy: {{ .ctx.Values.image.pullPolicy }}
    args: ["doctor"]
    env:
      {{- include "herald.env" . | trim | nindent 6 }}
    resources:
      {{- toYaml .ctx.Values.doctor.resources | nindent 6 }}
    securityContext:
      {{- toYaml .ctx.Values.securityContext | nindent 6 }}
    volumeMounts:
      {{- include "herald.volumeMounts" .ctx | nindent 6 }}
{{- end }}
{{- end -}}

{{/* Pod-level settings shared by the API and worker pods. */}}
{{- define "herald.podCommon" -}}
serviceAccountName: {{ include "herald.serviceAccountName" . }}
automountServiceAccountToken: false
enableServiceLinks: false
securityContext:
  {{- toYaml .Values.podSecurityContext | nindent 2 }}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}
