import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Sealed } from '../../crypto/secrets.ts';
import { DomainError } from '../../errors.ts';
import { fold } from '../aggregate.ts';
import { specOf } from '../testing.ts';
import { applicationAggregate, newApplication, type Application, type ApplicationEvent } from './application.ts';

const spec = specOf(applicationAggregate);
const app: Application = newApplication({
  applicationId: 'a1', projectId: 'p1', name: 'shop', appName: 'shop-0a1b2c', description: null,
  refreshToken: 't1', createdAt: '2026-01-01T00:00:00.000Z',
});
const created: ApplicationEvent = { type: 'ApplicationCreated', data: app };
const deleted: ApplicationEvent = { type: 'ApplicationDeleted', data: { applicationId: 'a1' } };
const startedBy = (deploymentId: string): ApplicationEvent =>
  ({ type: 'ApplicationStatusChanged', data: { applicationId: 'a1', deploymentId, applicationStatus: 'running' } });

describe('application decider', () => {
  it('creates an idle application of one replica built from a containerfile', () => {
    spec.given([]).when({ type: 'CreateApplication', data: app }).then([created]);
  });
  it('refuses to create an application twice', () => {
    spec.given([created]).when({ type: 'CreateApplication', data: app }).thenFails('CONFLICT', 'applicationId');
  });
  it('records only the fields an update changes', () => {
    spec.given([created]).when({ type: 'UpdateApplication', data: { applicationId: 'a1', name: 'shop', replicas: 3, env: null } })
      .then([{ type: 'ApplicationUpdated', data: { applicationId: 'a1', replicas: 3 } }]);
  });
  it('answers NOT_FOUND naming applicationId once the application is deleted', () => {
    spec.given([created, deleted]).when({ type: 'SaveEnvironment', data: { applicationId: 'a1', env: 'A=1' } })
      .thenFails('NOT_FOUND', 'applicationId');
  });
  it('saves the environment, and nothing when it is the same', () => {
    spec.given([created]).when({ type: 'SaveEnvironment', data: { applicationId: 'a1', env: 'A=1' } })
      .then([{ type: 'ApplicationEnvironmentSaved', data: { applicationId: 'a1', env: 'A=1' } }]);
    spec.given([created]).when({ type: 'SaveEnvironment', data: { applicationId: 'a1', env: null } }).then([]);
  });
  it('saves the build type with its containerfile', () => {
    spec.given([created]).when({ type: 'SaveBuildType', data: { applicationId: 'a1', buildType: 'gamma_packs', containerfile: 'FROM x' } })
      .then([{ type: 'ApplicationBuildTypeSaved', data: { applicationId: 'a1', buildType: 'gamma_packs', containerfile: 'FROM x' } }]);
  });
  it('switches the source to what each provider saves', () => {
    spec.given([created]).when({ type: 'SaveContainerProvider', data: { applicationId: 'a1', containerImage: 'nginx:1' } })
      .then([{ type: 'ApplicationContainerProviderSaved', data: { applicationId: 'a1', containerImage: 'nginx:1', sourceType: 'container' } }]);
    spec.given([created]).when({ type: 'SaveGitProvider', data: { applicationId: 'a1', customGitUrl: 'git@x:y.git' } })
      .then([{ type: 'ApplicationGitProviderSaved', data: { applicationId: 'a1', customGitUrl: 'git@x:y.git', sourceType: 'git' } }]);
    spec.given([created, { type: 'ApplicationGitProviderSaved', data: { applicationId: 'a1', sourceType: 'git' } }])
      .when({ type: 'SaveForgeProvider', data: { applicationId: 'a1', owner: 'me', repository: 'shop' } })
      .then([{ type: 'ApplicationForgeProviderSaved', data: { applicationId: 'a1', owner: 'me', repository: 'shop', sourceType: 'forge' } }]);
  });
  it('removes a generated SSH key, and does nothing when there is none', () => {
    const key: ApplicationEvent = {
      type: 'ApplicationSSHKeyGenerated',
      data: { applicationId: 'a1', customGitSSHKey: 'ssh-ed25519 AAAA', sshPrivateKey: 'enc:v1:x' as Sealed },
    };
    spec.given([created, key]).when({ type: 'RemoveSSHKey', data: { applicationId: 'a1' } })
      .then([{ type: 'ApplicationSSHKeyRemoved', data: { applicationId: 'a1' } }]);
    spec.given([created]).when({ type: 'RemoveSSHKey', data: { applicationId: 'a1' } }).then([]);
  });
  it('marks an application running once', () => {
    spec.given([created]).when({ type: 'MarkRunning', data: { applicationId: 'a1' } })
      .then([{ type: 'ApplicationMarkedRunning', data: { applicationId: 'a1' } }]);
    spec.given([created, { type: 'ApplicationMarkedRunning', data: { applicationId: 'a1' } }])
      .when({ type: 'MarkRunning', data: { applicationId: 'a1' } }).then([]);
  });
  it('refreshes the token', () => {
    spec.given([created]).when({ type: 'RefreshToken', data: { applicationId: 'a1', refreshToken: 't2' } })
      .then([{ type: 'ApplicationTokenRefreshed', data: { applicationId: 'a1', refreshToken: 't2' } }]);
  });
  it('stores a proxy configuration that is a YAML mapping', () => {
    const proxyConfig = 'http:\n  routers:\n    shop:\n      rule: Host(`shop.test`)\n      service: shop\n';
    spec.given([created]).when({ type: 'UpdateProxyConfig', data: { applicationId: 'a1', proxyConfig } })
      .then([{ type: 'ApplicationProxyConfigUpdated', data: { applicationId: 'a1', proxyConfig } }]);
  });
  it('stores a proxy configuration only over the one its caller checked, CONFLICT naming proxyConfig when another was saved between', () => {
    const proxyConfig = 'http:\n  routers:\n    shop:\n      rule: Host(`shop.test`)\n      service: shop\n';
    spec.given([created]).when({ type: 'UpdateProxyConfig', data: { applicationId: 'a1', proxyConfig, replacing: null } })
      .then([{ type: 'ApplicationProxyConfigUpdated', data: { applicationId: 'a1', proxyConfig } }]);
    spec.given([created, { type: 'ApplicationProxyConfigUpdated', data: { applicationId: 'a1', proxyConfig } }])
      .when({ type: 'UpdateProxyConfig', data: { applicationId: 'a1', proxyConfig: '', replacing: null } }).thenFails('CONFLICT', 'proxyConfig');
  });
  it('refuses a proxy configuration that is not valid YAML, or not a mapping, naming proxyConfig', () => {
    spec.given([created]).when({ type: 'UpdateProxyConfig', data: { applicationId: 'a1', proxyConfig: 'http: [unclosed' } })
      .thenFails('BAD_REQUEST', 'proxyConfig');
    spec.given([created]).when({ type: 'UpdateProxyConfig', data: { applicationId: 'a1', proxyConfig: '- a\n- b\n' } })
      .thenFails('BAD_REQUEST', 'proxyConfig');
  });
  it('refuses a proxy configuration the proxy\'s schema would refuse, naming the fault', () => {
    const refused = (proxyConfig: string, fault: RegExp) => assert.throws(
      () => applicationAggregate.decide({ type: 'UpdateProxyConfig', data: { applicationId: 'a1', proxyConfig } }, applicationAggregate.evolve(null, created)),
      (error: Error) => fault.test(error.message));
    refused('htp:\n  routers: {}\n', /htp is not a known key here; did you mean http\?/);
    refused('http:\n  routers:\n    web:\n      service: s\n', /http\.routers\.web\.rule is missing/);
    refused('http:\n  middlewares:\n    m:\n      notAMiddleware: {}\n', /http\.middlewares\.m\.notAMiddleware is not a known key here/);
    refused('http:\n  services:\n    s:\n      loadBalancer:\n        servers: [{}]\n', /http\.services\.s\.loadBalancer\.servers\[0\]\.url is missing/);
    refused('tls:\n  certificates:\n    - certFile: a.crt\n', /tls\.certificates\[0\]\.keyFile is missing/);
  });
  it('refuses a proxy configuration that defines a name Berth writes for this application, naming proxyConfig and the name', () => {
    const refused = (proxyConfig: string, fault: RegExp) => assert.throws(
      () => applicationAggregate.decide({ type: 'UpdateProxyConfig', data: { applicationId: 'a1', proxyConfig } }, applicationAggregate.evolve(null, created)),
      (error: Error) => error instanceof DomainError && error.issues[0]?.path === 'proxyConfig' && fault.test(error.message));
    const service = 'loadBalancer:\n          servers: [{url: "http://evil:80"}]';
    refused(`http:\n  services:\n    shop-0a1b2c-service:\n      ${service}\n`, /http\.services\.shop-0a1b2c-service: the name is reserved for the service Berth writes/);
    refused('http:\n  middlewares:\n    shop-0a1b2c-auth:\n      basicAuth:\n        users: ["me:x"]\n', /http\.middlewares\.shop-0a1b2c-auth: .*reserved for the basic-auth middleware/);
    // The file generator would drop it silently as one of its own redirect middlewares.
    refused('http:\n  middlewares:\n    shop-0a1b2c-redirect-www:\n      redirectScheme:\n        scheme: https\n', /shop-0a1b2c-redirect-www: .*reserved for the redirect middlewares/);
    refused('http:\n  routers:\n    shop-0a1b2c-auth:\n      rule: Host(`a.test`)\n      service: s\n', /http\.routers\.shop-0a1b2c-auth: .*reserved/);
  });
  it('lets a router refer to the service and middlewares Berth writes for this application', () => {
    const proxyConfig = 'http:\n  routers:\n    shop:\n      rule: Host(`shop.test`)\n      service: shop-0a1b2c-service\n      middlewares: [shop-0a1b2c-auth, shop-0a1b2c-redirect-1]\n';
    spec.given([created]).when({ type: 'UpdateProxyConfig', data: { applicationId: 'a1', proxyConfig } })
      .then([{ type: 'ApplicationProxyConfigUpdated', data: { applicationId: 'a1', proxyConfig } }]);
  });
  it('answers NOT_FOUND before judging the proxy configuration of an unknown application', () => {
    spec.given([]).when({ type: 'UpdateProxyConfig', data: { applicationId: 'a1', proxyConfig: 'http: [' } })
      .thenFails('NOT_FOUND', 'applicationId');
  });
  it('deletes an application that exists, and only then', () => {
    spec.given([created]).when({ type: 'DeleteApplication', data: { applicationId: 'a1' } }).then([deleted]);
    spec.given([created, deleted]).when({ type: 'DeleteApplication', data: { applicationId: 'a1' } })
      .thenFails('NOT_FOUND', 'applicationId');
  });

  it('refuses a reload of an idle application (stopped, or never deployed), naming applicationId: nothing runs to restart', () => {
    const reload = { type: 'RequestAction' as const, data: { applicationId: 'a1', action: 'reload' as const, requestId: 'r1' } };
    spec.given([created]).when(reload).thenFails('CONFLICT', 'applicationId');
    const stopped: ApplicationEvent = { type: 'ApplicationActionSucceeded', data: { applicationId: 'a1', action: 'stop', requestId: 'r0', applicationStatus: 'idle' } };
    spec.given([created, startedBy('d1'), stopped]).when(reload).thenFails('CONFLICT', 'applicationId');
    spec.given([created, startedBy('d1')]).when(reload).then([{ type: 'ApplicationActionRequested', data: reload.data }]);
    spec.given([created]).when({ ...reload, data: { ...reload.data, action: 'start' } })
      .then([{ type: 'ApplicationActionRequested', data: { ...reload.data, action: 'start' } }]);
  });

  describe('a deployment followed', () => {
    const follow = (step: 'started' | 'done' | 'error' | 'cancelled', statusBefore: 'idle' | 'done' = 'done') =>
      ({ type: 'FollowDeployment' as const, data: { applicationId: 'a1', deploymentId: 'd1', step, statusBefore } });
    const stopped: ApplicationEvent = { type: 'ApplicationActionSucceeded', data: { applicationId: 'a1', action: 'stop', requestId: 'r1', applicationStatus: 'idle' } };
    it('moves the status through the deployment\'s start and end', () => {
      spec.given([created]).when(follow('started')).then([startedBy('d1')]);
      spec.given([created, startedBy('d1')]).when(follow('done'))
        .then([{ type: 'ApplicationStatusChanged', data: { applicationId: 'a1', deploymentId: 'd1', applicationStatus: 'done' } }]);
      spec.given([created, startedBy('d1')]).when(follow('cancelled', 'idle'))
        .then([{ type: 'ApplicationStatusChanged', data: { applicationId: 'a1', deploymentId: 'd1', applicationStatus: 'idle' } }]);
    });
    it('appends nothing when the status is the step\'s already', () => {
      spec.given([created, startedBy('d1')]).when(follow('started')).then([]);
      spec.given([created, startedBy('d1'), stopped]).when(follow('cancelled', 'idle')).then([]);
    });
  });

  describe('removal begun', () => {
    const begun: ApplicationEvent = { type: 'ApplicationRemovalBegun', data: { applicationId: 'a1', projectId: 'p1' } };
    const moved: ApplicationEvent = { type: 'ApplicationUpdated', data: { applicationId: 'a1', projectId: 'p2' } };
    it('marks the removal with the project the application is in, once', () => {
      spec.given([created]).when({ type: 'BeginRemoval', data: { applicationId: 'a1', projectId: 'p1' } }).then([begun]);
      spec.given([created]).when({ type: 'BeginRemoval', data: { applicationId: 'a1' } }).then([begun]);
      spec.given([created, begun]).when({ type: 'BeginRemoval', data: { applicationId: 'a1', projectId: 'p1' } }).then([]);
    });
    it('refuses the mark, naming projectId, once the application has moved out of the project being removed', () => {
      spec.given([created, moved]).when({ type: 'BeginRemoval', data: { applicationId: 'a1', projectId: 'p1' } })
        .thenFails('CONFLICT', 'projectId');
      spec.given([]).when({ type: 'BeginRemoval', data: { applicationId: 'a1', projectId: 'p1' } }).thenFails('NOT_FOUND', 'applicationId');
    });
    it('refuses every change after the mark with CONFLICT naming applicationId: a move, a save, an action', () => {
      const marked = spec.given([created, begun]);
      marked.when({ type: 'UpdateApplication', data: { applicationId: 'a1', projectId: 'p2' } }).thenFails('CONFLICT', 'applicationId');
      marked.when({ type: 'SaveEnvironment', data: { applicationId: 'a1', env: 'A=1' } }).thenFails('CONFLICT', 'applicationId');
      marked.when({ type: 'RequestAction', data: { applicationId: 'a1', action: 'start', requestId: 'r1' } }).thenFails('CONFLICT', 'applicationId');
      assert.throws(() => applicationAggregate.decide({ type: 'MarkRunning', data: { applicationId: 'a1' } }, fold(applicationAggregate, [created, begun])),
        { message: 'applicationId names the application being removed; only its removal can go on' });
    });
    it('lets the removal finish after the mark, and the reports of work already started', () => {
      spec.given([created, begun]).when({ type: 'DeleteApplication', data: { applicationId: 'a1' } }).then([deleted]);
      spec.given([created, startedBy('d1'), begun])
        .when({ type: 'FollowDeployment', data: { applicationId: 'a1', deploymentId: 'd1', step: 'error', statusBefore: 'idle' } })
        .then([{ type: 'ApplicationStatusChanged', data: { applicationId: 'a1', deploymentId: 'd1', applicationStatus: 'error' } }]);
    });
    it('starts unmarked when created again under the same id after a removal', () => {
      assert.equal(fold(applicationAggregate, [created, begun, deleted, created])?.removingFrom, undefined);
    });
  });
});
