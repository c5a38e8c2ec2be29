// The Kubernetes CEL libraries with their own types (cel-library-types.ts): URLs, IP, CIDR, semver.
import { describe, expect, it } from 'vitest';
import { celEnvironment, celErrorText } from './cel.js';

const evaluate = (expression: string): unknown =>
  celEnvironment().evaluate(expression, { object: null, oldObject: null, namespaceObject: null });

describe('Kubernetes CEL type libraries (each expression must be true)', () => {
  it.each([
    // URLs
    ['url scheme', "url('https://user:pass@example.com:80/path?query=val#fragment').getScheme() == 'https'"],
    ['url host with port', "url('https://example.com:80/path').getHost() == 'example.com:80'"],
    [
      'url IPv6 host',
      "url('https://[::1]:80/path').getHost() == '[::1]:80' && url('https://[::1]:80/path').getHostname() == '::1'",
    ],
    [
      'url hostname and port',
      "url('https://example.com:8443/x').getHostname() == 'example.com' && url('https://example.com:8443/x').getPort() == '8443'",
    ],
    ['url without port', "url('https://example.com/x').getPort() == ''"],
    ['url escaped path', "url('https://example.com/path with spaces/').getEscapedPath() == '/path%20with%20spaces/'"],
    ['url path as written', "url('https://example.com/a%2Fb').getEscapedPath() == '/a%2Fb'"],
    ['url query', "url('https://example.com/?k=a&k=b&x=y+z').getQuery() == {'k': ['a', 'b'], 'x': ['y z']}"],
    [
      'url absolute path',
      "url('/absolute-path').getScheme() == '' && url('/absolute-path').getEscapedPath() == '/absolute-path'",
    ],
    ['isURL absolute', "isURL('https://kubernetes.io/#fragment') && isURL('http://a.b.c:8080/path')"],
    ['isURL absolute path', "isURL('/path')"],
    ['isURL relative', "!isURL('../relative-path') && !isURL('example.com')"],
    ['isURL bad host', "!isURL('https://a b.com/') && !isURL('http://[::1')"],
    ['isURL bad port', "!isURL('https://example.com:8x/')"],
    // IP
    ['ip family', "ip('192.168.0.1').family() == 4 && ip('::1').family() == 6"],
    ['ip string is canonical', "string(ip('2001:DB8:0:0:0:0:0:1')) == '2001:db8::1'"],
    ['ip equality', "ip('127.0.0.1') == ip('127.0.0.1') && ip('::1') != ip('::2')"],
    [
      'ip.isCanonical',
      "ip.isCanonical('127.0.0.1') && !ip.isCanonical('2001:DB8::1') && ip.isCanonical('2001:db8::1')",
    ],
    [
      'isIP',
      "isIP('1.2.3.4') && isIP('fe80::1') && !isIP('1.2.3') && !isIP('01.2.3.4') && !isIP('1.2.3.256') && !isIP('::ffff:1.2.3.4')",
    ],
    ['isIP zone', "!isIP('fe80::1%eth0')"],
    ['ip kinds', "ip('0.0.0.0').isUnspecified() && ip('127.0.0.2').isLoopback() && ip('::1').isLoopback()"],
    [
      'ip link-local',
      "ip('224.0.0.1').isLinkLocalMulticast() && ip('ff02::1').isLinkLocalMulticast() && ip('169.254.1.1').isLinkLocalUnicast() && ip('fe80::1').isLinkLocalUnicast()",
    ],
    [
      'ip global unicast',
      "ip('192.168.0.1').isGlobalUnicast() && !ip('255.255.255.255').isGlobalUnicast() && !ip('ff00::1').isGlobalUnicast() && ip('2001:db8::1').isGlobalUnicast()",
    ],
    ['embedded IPv4 in IPv6 prints as hex', "string(ip('::1.2.3.4')) == '::102:304'"],
    // CIDR
    [
      'cidr containsIP',
      "cidr('192.168.0.0/24').containsIP(ip('192.168.0.1')) && cidr('192.168.0.0/24').containsIP('192.168.0.255') && !cidr('192.168.0.0/24').containsIP('192.168.1.1')",
    ],
    ['cidr other family', "!cidr('::/0').containsIP('1.2.3.4')"],
    [
      'cidr containsCIDR',
      "cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16') && !cidr('10.1.0.0/16').containsCIDR(cidr('10.0.0.0/8'))",
    ],
    ['cidr parts', "cidr('192.168.0.5/24').ip() == ip('192.168.0.5') && cidr('192.168.0.5/24').prefixLength() == 24"],
    [
      'cidr masked',
      "cidr('192.168.0.5/24').masked() == cidr('192.168.0.0/24') && string(cidr('2001:db8::1/32').masked()) == '2001:db8::/32'",
    ],
    ['isCIDR', "isCIDR('10.0.0.0/8') && !isCIDR('10.0.0.0') && !isCIDR('10.0.0.0/33') && !isCIDR('10.0.0.0/08')"],
    // semver
    ['semver parts', "semver('1.2.3').major() == 1 && semver('1.2.3').minor() == 2 && semver('1.2.3').patch() == 3"],
    [
      'semver compare',
      "semver('1.2.3').isLessThan(semver('1.10.0')) && semver('2.0.0').isGreaterThan(semver('2.0.0-rc.1')) && semver('1.0.0').compareTo(semver('1.0.0')) == 0",
    ],
    ['semver equality ignores build metadata', "semver('1.0.0+a') == semver('1.0.0+b')"],
    [
      'isSemver strict',
      "isSemver('1.2.3-alpha.1+build') && !isSemver('v1.2.3') && !isSemver('1.2') && !isSemver('01.2.3')",
    ],
    ['isSemver normalized', "isSemver('v1.2', true) && semver('v01.2', true) == semver('1.2.0')"],
    [
      "format messages are Kubernetes' (double space before or)",
      "format.dns1035Label().validate('a b').value()[0].contains(\"'my-name',  or 'abc-123'\")",
    ],
    // quantity
    [
      'quantity equality across suffixes',
      "quantity('1Gi') == quantity('1024Mi') && quantity('1') == quantity('1000m') && quantity('1k') == quantity('1e3')",
    ],
    [
      'quantity compare',
      "quantity('200M').isLessThan(quantity('1G')) && quantity('1Ki').isGreaterThan(quantity('1k')) && quantity('1Ki').compareTo(quantity('1024')) == 0",
    ],
    [
      'quantity arithmetic',
      "quantity('50k').add(20).compareTo(quantity('50020')) == 0 && quantity('1.5').sub(quantity('500m')) == quantity('1')",
    ],
    ['quantity sign', "quantity('-2').sign() == -1 && quantity('0').sign() == 0 && quantity('3m').sign() == 1"],
    [
      'quantity integers',
      "quantity('50k').isInteger() && quantity('50k').asInteger() == 50000 && !quantity('1.5').isInteger() && !quantity('9999999999999999999').isInteger()",
    ],
    ['quantity float', "quantity('1.5').asApproximateFloat() == 1.5 && quantity('500m').asApproximateFloat() == 0.5"],
    [
      'isQuantity',
      "isQuantity('1.5Gi') && isQuantity('+1') && isQuantity('.5') && !isQuantity('1.5.5') && !isQuantity('1K') && !isQuantity('') && !isQuantity('Gi')",
    ],
    [
      'quantity rounds up to nanos',
      "quantity('0.1n') == quantity('1n') && quantity('1e-999999999') == quantity('1n') && quantity('-1e-50') == quantity('-1n')",
    ],
    ['quantity refuses huge exponents quickly', "!isQuantity('1e999999999') && isQuantity('1e18')"],
    // format
    [
      'format valid',
      "!format.dns1123Label().validate('my-name').hasValue() && !format.labelValue().validate('').hasValue()",
    ],
    ['format invalid', "format.dns1123Label().validate('My_Name').value().size() == 1"],
    [
      'format message',
      "format.dns1123Subdomain().validate('-x').value()[0].startsWith('a lowercase RFC 1123 subdomain must consist of')",
    ],
    [
      'format named',
      "format.named('dns1035Label').hasValue() && !format.named('nope').hasValue() && format.named('uuid').value().validate('not-a-uuid').hasValue()",
    ],
    [
      'format prefix allows a trailing dash',
      "!format.dns1123LabelPrefix().validate('my-name-').hasValue() && format.dns1123Label().validate('my-name-').hasValue()",
    ],
    [
      'format date and datetime',
      "!format.date().validate('2024-02-29').hasValue() && format.date().validate('2023-02-29').hasValue() && !format.datetime().validate('2024-01-01T10:00:00Z').hasValue()",
    ],
    [
      'format uri and byte',
      "!format.uri().validate('https://example.com/').hasValue() && format.uri().validate('x').hasValue() && !format.byte().validate('aGk=').hasValue()",
    ],
  ])('%s', (_name, expression) => {
    expect(evaluate(expression)).toBe(true);
  });
});

describe('Kubernetes CEL type libraries: values from objects stay cheap', () => {
  const run = (expression: string, v: string): unknown =>
    celEnvironment().evaluate(expression, { object: { v }, oldObject: null, namespaceObject: null });

  it('a query repeating one key keeps every value (collected by appending, not copying)', () => {
    expect(run("url(object.v).getQuery()['a'].size() == 5000", `https://x/?${'a&'.repeat(4_999)}a`)).toBe(true);
  });

  it('a long version string is refused before any normalisation work', () => {
    expect(run('isSemver(object.v, true)', `${'1'.repeat(1_000_000)}.0.0`)).toBe(false);
  });
});

describe('Kubernetes CEL type libraries: conversion errors', () => {
  it.each([
    ["url('../x')", 'URL parse error during conversion from string: parse "../x": invalid URI for request'],
    ["ip('1.2.3')", 'network address parse error during conversion from string'],
    ["ip('fe80::1%eth0')", 'IP Address with zone value is not allowed'],
    ["ip('::ffff:1.2.3.4')", 'IPv4-mapped IPv6 address is not allowed'],
    ["cidr('1.2.3.4')", 'network address parse error during conversion from string'],
    ["semver('v1.0.0')", 'could not parse semver'],
    ["quantity('1.5.5')", 'quantities must match the regular expression'],
    ["quantity('1K')", "unable to parse quantity's suffix"],
    ["quantity('1.5').asInteger()", 'cannot convert value to integer'],
  ])('%s', (expression, message) => {
    let error: unknown;
    try {
      evaluate(expression);
    } catch (e) {
      error = e;
    }
    expect(celErrorText(error)).toContain(message);
  });
});
