import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderFamilies } from './exposition.ts';
import { createHttpMetrics } from './http-metrics.ts';

function lines(text: string, prefix: string): string[] {
  return text.split('\n').filter((line) => line.startsWith(prefix));
}

describe('HTTP metrics', () => {
  it('reports a declared operation before its first request', () => {
    const metrics = createHttpMetrics();
    metrics.declare('listPets');
    assert.ok(
      renderFamilies(metrics.families()).includes(
        'petstore_http_request_duration_seconds_count{operation="listPets"} 0',
      ),
    );
  });

  it('counts requests by operation, method and status; unknown methods become other', () => {
    const metrics = createHttpMetrics();
    metrics.observe('listPets', 'GET', 200, 1);
    metrics.observe('listPets', 'GET', 200, 1);
    metrics.observe('createPet', 'POST', 201, 1);
    metrics.observe('other', 'PROPFIND', 404, 1);
    assert.deepEqual(lines(renderFamilies(metrics.families()), 'petstore_http_requests_total{'), [
      'petstore_http_requests_total{operation="listPets",method="GET",status="200"} 2',
      'petstore_http_requests_total{operation="createPet",method="POST",status="201"} 1',
      'petstore_http_requests_total{operation="other",method="other",status="404"} 1',
    ]);
  });

  it('puts a duration equal to a bound in that bucket (le is inclusive) and sums seconds', () => {
    const metrics = createHttpMetrics();
    metrics.observe('getPet', 'GET', 200, 0.5);
    metrics.observe('getPet', 'GET', 200, 0.7);
    metrics.observe('getPet', 'GET', 200, 3_000);
    const text = renderFamilies(metrics.families());
    const getPet = lines(text, 'petstore_http_request_duration_seconds').filter((l) =>
      l.includes('"getPet"'),
    );
    assert.ok(
      getPet.includes('petstore_http_request_duration_seconds_bucket{operation="getPet",le="0.0005"} 1'),
    );
    assert.ok(
      getPet.includes('petstore_http_request_duration_seconds_bucket{operation="getPet",le="0.001"} 2'),
    );
    assert.ok(
      getPet.includes('petstore_http_request_duration_seconds_bucket{operation="getPet",le="2.5"} 2'),
    );
    assert.ok(
      getPet.includes('petstore_http_request_duration_seconds_bucket{operation="getPet",le="+Inf"} 3'),
    );
    assert.ok(getPet.includes('petstore_http_request_duration_seconds_count{operation="getPet"} 3'));
    const sum = Number(getPet.find((l) => l.includes('_sum'))!.split(' ')[1]);
    assert.ok(Math.abs(sum - 3.0012) < 1e-9, String(sum));
  });

  it('counts refusals by reason, bans and created pets', () => {
    const metrics = createHttpMetrics();
    metrics.refused('rate_limited');
    metrics.refused('temporarily_banned');
    metrics.refused('temporarily_banned');
    metrics.banned();
    metrics.petCreated();
    const text = renderFamilies(metrics.families());
    assert.deepEqual(lines(text, 'petstore_rate_limit_refusals_total{'), [
      'petstore_rate_limit_refusals_total{reason="rate_limited"} 1',
      'petstore_rate_limit_refusals_total{reason="temporarily_banned"} 2',
    ]);
    assert.deepEqual(lines(text, 'petstore_bans_total '), ['petstore_bans_total 1']);
    assert.deepEqual(lines(text, 'petstore_pets_created_total '), ['petstore_pets_created_total 1']);
  });
});
