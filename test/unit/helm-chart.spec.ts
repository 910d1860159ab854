import { join } from 'node:path';
import { ConfigMap, Service, ServiceAccount } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { Role, RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1';
import { envSchema } from '@h/config';
import { renderChart, renderTemplate } from './helm-chart-render';

const chart = join(__dirname, '..', '..', 'deploy', 'helm', 'h');
// One model class per kind the chart may render: validate() checks the object against the
// Kubernetes OpenAPI schema (kubernetes-models), offline.
const MODELS: Record<string, new (o: never) => { validate(): void }> = {
  ConfigMap, Service, ServiceAccount, Deployment, Ingress, NetworkPolicy, Role, RoleBinding,
};

type Obj = Record<string, any>;
const byName = (objects: { object: Obj }[], kind: string, name: string): Obj => {
  const found = objects.find((o) => o.object.kind === kind && o.object.metadata?.name === name);
  if (!found) throw new Error(`no ${kind} ${name}`);
  return found.object;
};

describe('deploy/helm/h', () => {
  const objects = renderChart(chart);

  it('should render objects the Kubernetes OpenAPI schemas accept, for the default values and with the Ingress on', () => {
    const withIngress = renderChart(chart, (v) => ((v.ingress as Obj).enabled = true));
    for (const { template, object } of [...objects, ...withIngress]) {
      const Model = MODELS[object.kind as string];
      expect({ template, kind: object.kind, known: Boolean(Model) }).toEqual({ template, kind: object.kind, known: true });
      expect(() => new Model(object as never).validate()).not.toThrow();
    }
    expect(objects.some((o) => o.object.kind === 'Ingress')).toBe(false);
    expect(withIngress.filter((o) => o.object.kind === 'Ingress')).toHaveLength(1);
    expect(objects.filter((o) => o.object.kind === 'Deployment').map((o) => (o.object as Obj).metadata.name).sort()).toEqual(['h-api', 'h-web', 'h-worker']);
  });

  it('should run api and worker on the kubernetes sandbox driver with settings the env schema knows, secrets only by reference', () => {
    const config = byName(objects, 'ConfigMap', 'h-config');
    expect(config.data).toMatchObject({
      SANDBOX_DRIVER: 'kubernetes',
      K8S_NAMESPACE: 'h-sandboxes',
      K8S_EGRESS_PROXY_SERVICE: 'h-egress-proxy.h',
      // Listen on the pod's interfaces; the public name is only the URL users open.
      H_HOST: '0.0.0.0',
      H_PUBLIC_URL: 'https://h.example.com',
    });
    const unknown = Object.keys(config.data).filter((k) => !(k in envSchema.shape));
    expect(unknown).toEqual([]);
    // The config parses: a bad value would stop the servers at boot.
    expect(envSchema.safeParse({ ...config.data, DATABASE_URL: 'postgresql://h@db/h', REDIS_URL: 'redis://redis:6379', H_MASTER_KEY: Buffer.alloc(32).toString('base64') }).success).toBe(true);
    for (const name of ['h-api', 'h-worker']) {
      const pod = byName(objects, 'Deployment', name).spec.template.spec;
      expect(pod.serviceAccountName).toBe('h-sandbox-manager');
      expect(pod.containers[0].envFrom).toEqual([{ configMapRef: { name: 'h-config' } }, { secretRef: { name: 'h-secrets' } }]);
      expect(pod.containers[0].securityContext).toMatchObject({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
    }
    expect(byName(objects, 'Deployment', 'h-web').spec.template.spec.automountServiceAccountToken).toBe(false);
    expect(objects.some((o) => o.object.kind === 'Secret')).toBe(false);
  });

  it('should give the sandbox manager exactly pods, pods/exec, PVCs and NetworkPolicies in the sandbox namespace', () => {
    const role = byName(objects, 'Role', 'h-sandbox-manager');
    expect(role.metadata.namespace).toBe('h-sandboxes');
    expect(role.rules.flatMap((r: Obj) => r.resources).sort()).toEqual(['networkpolicies', 'persistentvolumeclaims', 'pods', 'pods/exec']);
    expect(role.rules.flatMap((r: Obj) => r.verbs)).not.toContain('*');
    const binding = byName(objects, 'RoleBinding', 'h-sandbox-manager');
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'h-sandbox-manager', namespace: 'h' }]);
    expect(binding.roleRef).toMatchObject({ kind: 'Role', name: 'h-sandbox-manager' });
  });

  it('should point the egress proxy Service at the worker pods the sandboxes may reach', () => {
    const svc = byName(objects, 'Service', 'h-egress-proxy');
    const worker = byName(objects, 'Deployment', 'h-worker').spec.template;
    expect(svc.spec.ports).toEqual([{ name: 'egress', port: 3128, targetPort: 3128 }]);
    expect(worker.metadata.labels).toMatchObject(svc.spec.selector);
    expect(worker.spec.containers[0].ports).toContainEqual({ name: 'egress', containerPort: 3128 });
    const ingress = byName(objects, 'NetworkPolicy', 'h-worker-ingress').spec.ingress[0];
    expect(ingress.from[0]).toEqual({ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'h-sandboxes' } }, podSelector: { matchLabels: { 'h.network': 'egress' } } });
  });

  it('should refuse a template outside the documented subset', () => {
    const ctx = { values: { a: { b: 'x' } }, release: { name: 'r', namespace: 'n' } };
    expect(renderTemplate('v: {{ .Values.a.b }}-{{ .Release.Name }}', ctx)).toBe('v: x-r');
    expect(() => renderTemplate('v: {{ include "x" . }}', ctx)).toThrow(/outside the chart's template subset/);
    expect(() => renderTemplate('v: {{ .Values.a.missing }}', ctx)).toThrow(/not in the values/);
    expect(renderTemplate('{{- if .Values.a.b }}\nk: 1\n{{- end }}\n', ctx)).toBe('k: 1\n');
  });
});
