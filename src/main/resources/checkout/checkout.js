'use strict';
// A checkout page for the inventory reservation service, calling it from the browser the way the contract says
// (docs/contract.md, sections 4 and 8). Plain JavaScript and no build step: copy it into your shop and restyle it.
// What a browser must get right sits in four places:
//   api()        the storefront token, the Admission-Token, one Idempotency-Key per intent kept across its retries,
//                Retry-After honoured on 409, 429 and 503, and an X-Request-Id the service logs;
//   openStream() an EventSource cannot send headers, so the stream, and only the stream, takes ?access_token=;
//   MESSAGES     every problem code the page can meet, in words a buyer understands;
//   drawPlan()   a seating plan (section 13) drawn as SVG from one read, repainted from the stream, clicked to hold.

// What your shop's server writes into the page. A storefront token may sit in a browser: it can only read
// availability, hold, buy and read an order by its code, and only from the origins in CORS_ORIGINS. The query
// parameters point this page at another service: ?api=https://...&token=...&events=a,b
const params = new URLSearchParams(location.search);
const CONFIG = {
  api: params.get('api') || `${location.origin}/api/v1`,
  token: params.get('token') || 'demo-storefront-token',
  events: (params.get('events') || 'demo-concert').split(','),
};

const BUSY = 'Many people are buying right now.';
const MESSAGES = {
  quota_exhausted: p => p.available_number > 0
    ? `Sorry, only ${p.available_number} of “${nameOf(p.item_id)}” ${p.available_number === 1 ? 'is' : 'are'} left.`
    : `Sorry, “${nameOf(p.item_id)}” is sold out.`,
  seat_unavailable: p => p.available_number > 0
    ? `Sorry, only ${p.available_number} ${p.available_number === 1 ? 'seat is' : 'seats are'} left.`
    : 'Sorry, these seats are sold out.',
  item_unavailable: p => `Sorry, “${nameOf(p.item_id)}” is not sold here.`,
  seat_taken: 'Sorry, someone else took this seat a moment ago: please choose another.',
  seat_gone: 'The seating plan has just changed: please choose your seat again.',
  hold_limit: 'We cannot hold your tickets any longer: please buy them now.',
  cart_empty: 'Your cart is empty: choose your tickets first.',
  too_many_positions: 'That is more tickets than one order can take.',
  buyer_limit: p => `You can buy at most ${p.max_per_buyer} of these.`,
  admission_required: 'Your turn in line has run out. Please join the sale again.',
  not_found: 'Your cart has run out. Please join the sale again.',
  validation_failed: 'Please check your email address.',
  lock_timeout: BUSY,
  overloaded: BUSY,
  inventory_changed: BUSY,
  database_unavailable: 'The box office is briefly unavailable.',
  idempotency_key_in_use: 'Still working on your last click.',
  too_many_tickets: 'Too many people joined the line from your connection.',
  unauthorized: 'This shop is not allowed to sell here right now.',
  forbidden: 'This shop is not allowed to sell here right now.',
  unreachable: 'We cannot reach the box office. Please check your connection and try again.',
};

class Problem extends Error {
  constructor(body, status) {
    super(body.code || `HTTP ${status}`);
    this.body = body;
    this.code = body.code || 'unknown';
  }
}

function explain(problem) {
  const message = MESSAGES[problem.code];
  if (typeof message === 'function') return message(problem.body);
  return message || `Something went wrong (${problem.code}). Please try again.`;
}

// What this visit must keep across a reload, per event: its reference, its queue ticket, its admission (null
// where the event has no waiting room), its one cart (an admission opens exactly one), the keys of unfinished
// intents, and its order.
let visit;
let sent = 0;

function load(slug) {
  const reference = Array.from(crypto.getRandomValues(new Uint8Array(8)), b => b.toString(16).padStart(2, '0'))
    .join('');
  visit = JSON.parse(sessionStorage.getItem(`checkout:${slug}`)) || { slug, reference, keys: {}, intents: 0 };
}

function save() {
  sessionStorage.setItem(`checkout:${visit.slug}`, JSON.stringify(visit));
}

// One Idempotency-Key per intent: the same for every retry of it, the buyer's own second click after a failure
// included, so that it happens at most once; a new one once it succeeded, or for another request.
function keyFor(path, body) {
  const request = JSON.stringify(body ?? null);
  const open = visit.keys[path];
  if (!open || open.request !== request) {
    visit.keys[path] = { key: `${visit.reference}-${++visit.intents}`, request };
    save();
  }
  return visit.keys[path].key;
}

async function change(path, body) {
  const answer = await api('POST', path, { body, key: keyFor(path, body), admission: visit.admission });
  delete visit.keys[path];
  save();
  return answer;
}

async function api(method, path, { body, key, admission } = {}) {
  const headers = { Authorization: `Bearer ${CONFIG.token}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (admission) headers['Admission-Token'] = admission;
  if (key) headers['Idempotency-Key'] = key;
  for (let attempt = 1; ; attempt++) {
    // Every line the service logs for this request carries it: one purchase, followed by its reference.
    headers['X-Request-Id'] = `${visit.reference}.${++sent}`;
    let response;
    try {
      response = await fetch(CONFIG.api + path, { method, headers, body: body && JSON.stringify(body) });
    } catch (noAnswer) {
      // It may or may not have happened: only a read, or a change with its key, may be sent again.
      if ((method !== 'GET' && !key) || attempt === 5) throw new Problem({ code: 'unreachable' }, 0);
      await countdown(attempt, 'We lost the connection to the box office.');
      continue;
    }
    if (response.ok) return response.status === 204 ? null : response.json();
    const problem = new Problem(await response.json().catch(() => ({})), response.status);
    const retryAfter = Number(response.headers.get('Retry-After'));
    if ([409, 429, 503].includes(response.status) && retryAfter > 0 && attempt < 10) {
      await countdown(retryAfter, explain(problem));
      continue;
    }
    throw problem;
  }
}

function openStream() {
  // The one endpoint that takes the token in its URL (RFC 6750, section 2.3); the service never logs it.
  const live = new EventSource(`${CONFIG.api}/events/${visit.slug}/availability/stream`
    + `?access_token=${encodeURIComponent(CONFIG.token)}`);
  live.onmessage = message => {
    const list = JSON.parse(message.data).items;
    showAvailability(list);
    // A seat changes colour only when what its item has left changes: the plan is read again only then, not at
    // every message of a sale of other items.
    const seated = JSON.stringify(list.filter(item => planItemIds.has(item.item_id)));
    if (seated !== seatedLeft) {
      seatedLeft = seated;
      refreshPlan();
    }
    $('live').textContent = `Live: updated at ${new Date().toLocaleTimeString()}`;
  };
  live.onerror = () => {
    $('live').textContent = live.readyState === EventSource.CLOSED
      ? 'Live updates are unavailable: reload the page to see what is left.'
      : 'Live updates interrupted: reconnecting…';
  };
  return live;
}

async function waitInLine() {
  let ticket;
  if (visit.ticket) {
    ticket = await api('GET', `/events/${visit.slug}/queue/${visit.ticket}`); // a reload keeps its place
  } else {
    try {
      ticket = await change(`/events/${visit.slug}/queue`);
    } catch (problem) {
      if (problem.code === 'waiting_room_off') return null; // no room: carts need no admission
      throw problem;
    }
    visit.ticket = ticket.ticket;
    save();
  }
  show('line');
  while (!ticket.admission_token) {
    const wait = ticket.estimated_wait_seconds < 60
      ? 'less than a minute' : `about ${Math.round(ticket.estimated_wait_seconds / 60)} min`;
    $('place').textContent = ticket.position === 0
      ? 'You are next.'
      : `${ticket.position} ${ticket.position === 1 ? 'person is' : 'people are'} ahead of you: ${wait} to go.`;
    await pause(2); // a read that takes no lock: every few seconds is what the service expects
    ticket = await api('GET', `/events/${visit.slug}/queue/${ticket.ticket}`);
  }
  hide('line');
  return ticket.admission_token;
}

let items = new Map();
let currency = 'EUR'; // the event's, from its catalog
let cart = null;
let seatNames = null;
let stream = null;

async function enter() {
  load($('event').value);
  hide('choose');
  // A bought order is shown even when the catalog cannot be read; then under the event's slug.
  const catalog = await api('GET', `/events/${visit.slug}/catalog`).catch(failed => {
    if (visit.order) return null;
    throw failed;
  });
  $('title').textContent = catalog?.event.name ?? visit.slug;
  if (catalog) {
    currency = catalog.event.currency;
    items = new Map(catalog.items.map(item => [item.item_id, item]));
  }
  if (visit.order) return showOrder(await api('GET', `/events/${visit.slug}/orders/${visit.order}`));
  showItems(catalog.items);
  const drawn = await readPlan();
  if (drawn) drawPlan(drawn);
  stream?.close();
  stream = openStream();
  if (visit.admission === undefined) {
    say('Joining the line…');
    visit.admission = await waitInLine();
    save();
  }
  if (!visit.cart) {
    visit.cart = (await change(`/events/${visit.slug}/carts`)).id;
    save();
  }
  await showCart(await api('GET', cartPath(), { admission: visit.admission }));
  say('It is your turn: choose your tickets.');
}

function cartPath() {
  return `/events/${visit.slug}/carts/${visit.cart}`;
}

async function take(item, quantity) {
  const answer = item.requires_seat
    ? await change(`${cartPath()}/best_available`, { item_id: item.item_id, quantity })
    : await change(`${cartPath()}/positions`, { positions: [{ item_id: item.item_id, quantity }] });
  await showCart(answer);
  say(`${quantity} × ${item.name}: in your cart.`);
}

async function extend() {
  await showCart(await change(`${cartPath()}/extend`));
  say('We hold your tickets for you longer.');
}

async function buy() {
  const order = await change(`/events/${visit.slug}/orders`, { cart_id: visit.cart, email: $('email').value });
  visit.order = order.code;
  save();
  showOrder(order);
}

function again() {
  sessionStorage.removeItem(`checkout:${visit.slug}`);
  location.reload();
}

function showItems(list) {
  $('items').replaceChildren(...list.map(item => {
    const quantity = el('select', {}, ...[1, 2, 3, 4].map(n => el('option', { value: n }, n)));
    const button = el('button', { type: 'button', disabled: true }, item.requires_seat ? 'Best seats' : 'Add');
    button.onclick = act(() => take(item, Number(quantity.value)));
    return el('tr', { 'data-item': item.item_id }, el('td', {}, item.name), el('td', {}, money(item.price)),
      el('td', { className: 'left' }), el('td', {}, quantity), el('td', {}, button));
  }));
  showAvailability(list);
  show('shop');
}

function showAvailability(list) {
  for (const { item_id: id, available, available_number: left } of list) {
    const row = document.querySelector(`tr[data-item="${id}"]`);
    if (!row) continue;
    row.querySelector('.left').textContent = available ? (left ?? 'Plenty') : 'Sold out';
    row.querySelector('.left').classList.toggle('sold-out', !available);
    row.dataset.available = available;
  }
  enable();
}

async function showCart(answer) {
  cart = answer;
  if (cart.positions.some(p => p.seat_guid) && !seatNames) {
    const seats = await api('GET', `/events/${visit.slug}/seats?limit=500`);
    seatNames = new Map(seats.data.map(seat => [seat.guid, seat.name]));
  }
  $('positions').replaceChildren(...cart.positions.map(position => el('li', {}, describe(position))));
  $('total').textContent = money(cart.total);
  $('cart').hidden = cart.positions.length === 0;
  if (seatsDrawn) paintSeats(seatsDrawn);
  tick();
}

// The seating plan: one read answers the plan as imported, its categories' items, and each seat's place and whether
// it is free; a stream message in which a plan item's availability changed reads it again and repaints. Reads take
// no lock, so a seat shown free may be gone when clicked: the hold is refused, said in words, and the seat greyed.
const SVG = 'http://www.w3.org/2000/svg';
let planItems = {};
let planItemIds = new Set();
let seatedLeft = null;
let colours = new Map();
let circles = new Map();
let seatsDrawn = null;
let planVersion = null;
let reading = false;
let readAgain = false;

async function readPlan() {
  try {
    return await api('GET', `/events/${visit.slug}/seating_plan`);
  } catch (problem) {
    if (problem instanceof Problem && ['not_found', 'validation_failed'].includes(problem.code)) return null;
    throw problem;
  }
}

function drawPlan(drawn) {
  planVersion = drawn.version;
  planItems = drawn.categories;
  planItemIds = new Set(Object.values(planItems));
  colours = new Map(drawn.plan.categories.map(category => [category.name, category.color || '#7f4a91']));
  const map = $('map');
  map.setAttribute('viewBox', `0 0 ${drawn.plan.size.width} ${drawn.plan.size.height}`);
  circles = new Map(drawn.seats.map(seat => {
    const circle = svg('circle', { cx: seat.x, cy: seat.y, r: 10, 'data-guid': seat.guid });
    const title = document.createElementNS(SVG, 'title');
    title.textContent = `${seat.category}: ${seat.guid}`;
    circle.append(title);
    circle.onclick = act(() => pick(seat));
    return [seat.guid, circle];
  }));
  map.replaceChildren(...drawn.plan.zones.flatMap(areasOf), ...circles.values());
  paintSeats(drawn.seats);
  show('plan');
}

// A zone's areas (a stage, a bar, a label), placed from the zone's position as pretix's editor places them.
function areasOf(zone) {
  return (zone.areas ?? []).map(area => {
    const x = zone.position.x + (area.position?.x ?? 0);
    const y = zone.position.y + (area.position?.y ?? 0);
    const paint = { fill: area.color || '#ddd', stroke: area.border_color || 'none' };
    const turned = { transform: `rotate(${area.rotation ?? 0} ${x} ${y})` };
    switch (area.shape) {
      case 'rectangle':
        return svg('rect', { x, y, width: area.rectangle.width, height: area.rectangle.height, ...paint, ...turned });
      case 'circle':
        return svg('circle', { cx: x, cy: y, r: area.circle.radius, ...paint });
      case 'ellipse':
        return svg('ellipse', { cx: x, cy: y, rx: area.ellipse.radius.x, ry: area.ellipse.radius.y, ...paint, ...turned });
      case 'polygon':
        return svg('polygon', { points: area.polygon.points.map(p => `${x + p.x},${y + p.y}`).join(' '), ...paint });
      case 'text': {
        const label = svg('text', { x: x + (area.text.position?.x ?? 0), y: y + (area.text.position?.y ?? 0),
          'font-size': area.text.size ?? 16, fill: area.text.color || '#333', 'text-anchor': 'middle', ...turned });
        label.textContent = area.text.text;
        return label;
      }
      default:
        return svg('g', {});
    }
  });
}

function svg(tag, attributes) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  return element;
}

function paintSeats(seats) {
  seatsDrawn = seats;
  const mine = new Set((cart?.positions ?? []).map(position => position.seat_guid));
  for (const seat of seats) {
    const state = mine.has(seat.guid) ? 'yours' : seat.free ? 'free' : 'taken';
    const circle = circles.get(seat.guid);
    if (!circle) continue;
    circle.dataset.state = state;
    circle.setAttribute('fill', state === 'free' ? colours.get(seat.category) : state === 'yours' ? '#111' : '#bbb');
  }
}

async function refreshPlan() {
  if (!seatsDrawn) return;
  // A change announced while a reading is on its way may not be in it: one more reading follows.
  if (reading) {
    readAgain = true;
    return;
  }
  reading = true;
  try {
    do {
      readAgain = false;
      const drawn = await readPlan();
      // A plan replaced meanwhile is drawn again whole: seats came and went, categories moved.
      if (drawn && drawn.version !== planVersion) drawPlan(drawn);
      else if (drawn) paintSeats(drawn.seats);
    } while (readAgain);
  } finally {
    reading = false;
  }
}

async function pick(seat) {
  const circle = circles.get(seat.guid);
  if (!visit.cart || circle.dataset.state !== 'free') return;
  try {
    await showCart(await change(`${cartPath()}/positions`,
      { positions: [{ item_id: planItems[seat.category], seat_guid: seat.guid }] }));
  } catch (problem) {
    if (problem instanceof Problem && problem.code === 'seat_unavailable') {
      circle.dataset.state = 'taken';
      circle.setAttribute('fill', '#bbb');
      throw new Problem({ code: 'seat_taken' }, 409);
    }
    // A seat the venue's new plan no longer has: the cart is fine, the drawing was old.
    if (problem instanceof Problem && problem.code === 'not_found' && /seat/.test(problem.body.detail ?? '')) {
      refreshPlan();
      throw new Problem({ code: 'seat_gone' }, 404);
    }
    throw problem;
  }
  say(`${seat.category}, seat ${seat.guid}: in your cart.`);
}

function nameOf(item) {
  return items.get(item)?.name ?? 'these tickets';
}

function describe(position) {
  const name = nameOf(position.item_id);
  const seat = position.seat_guid ? ` (${seatNames?.get(position.seat_guid) ?? position.seat_guid})` : '';
  return `${name}${seat}: ${money(position.price)}`;
}

function showOrder(order) {
  ['shop', 'cart', 'line'].forEach(hide);
  const status = { pending: 'reserved for you until you pay', paid: 'paid', canceled: 'canceled', expired: 'expired' };
  $('summary').textContent = `Order ${order.code}: ${money(order.total, order.currency)}, `
    + `${status[order.status] ?? order.status}` + (order.status === 'pending'
      ? ` (pay by ${new Date(order.expires).toLocaleString()}).` : '.');
  $('ordered').replaceChildren(...order.positions.map(position => el('li', {}, describe(position))));
  $('reference').textContent = visit.reference;
  show('order');
  say(`Thank you! Your order for ${order.email} is placed.`);
}

// The hold that runs out first; extending moves every hold's deadline.
function tick() {
  if (!cart || cart.positions.length === 0) return;
  const left = Math.min(...cart.positions.map(p => Date.parse(p.expires))) - Date.now();
  const minutes = Math.floor(left / 60000);
  const seconds = String(Math.floor(left / 1000) % 60).padStart(2, '0');
  $('countdown').textContent = left > 0
    ? `We hold these for you for ${minutes}:${seconds} more.`
    : 'Your hold has run out: buying checks whether they are still free.';
}

// Every button click: one request at a time, and any refusal said in the buyer's words.
let working = false;

function act(action) {
  return async event => {
    event?.preventDefault();
    working = true;
    enable();
    try {
      await action();
    } catch (problem) {
      if (!(problem instanceof Problem)) throw problem;
      say(explain(problem), true);
      const gone = problem.code === 'admission_required' || problem.code === 'not_found';
      if (gone) sessionStorage.removeItem(`checkout:${visit.slug}`); // its admission or its cart: start again
      if (gone || !visit?.cart) {
        ['line', 'shop', 'cart'].forEach(hide);
        show('choose');
      }
    } finally {
      working = false;
      enable();
    }
  };
}

function enable() {
  document.querySelectorAll('#items tr').forEach(row => {
    row.querySelector('button').disabled = working || !visit?.cart || row.dataset.available !== 'true';
  });
  ['extend', 'checkout'].forEach(id => { $(id).disabled = working; });
}

function countdown(seconds, reason) {
  return new Promise(resolve => {
    const shown = left => say(`${reason} Trying again in ${left} s…`, true);
    let left = seconds;
    shown(left);
    const timer = setInterval(() => {
      left -= 1;
      if (left > 0) return shown(left);
      clearInterval(timer);
      resolve();
    }, 1000);
  });
}

function pause(seconds) {
  return new Promise(resolve => setTimeout(resolve, seconds * 1000));
}

function say(text, problem = false) {
  $('status').textContent = text;
  $('status').classList.toggle('problem', problem);
}

function money(amount, inCurrency = currency) {
  return new Intl.NumberFormat(undefined, { style: 'currency', currency: inCurrency }).format(amount);
}

function el(tag, properties, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(properties)) {
    if (name.startsWith('data-')) element.setAttribute(name, value);
    else element[name] = value;
  }
  element.append(...children.map(child => (child instanceof Node ? child : String(child))));
  return element;
}

function $(id) {
  return document.getElementById(id);
}

function show(id) {
  $(id).hidden = false;
}

function hide(id) {
  $(id).hidden = true;
}

$('event').replaceChildren(...CONFIG.events.map(slug => el('option', { value: slug }, slug)));
$('join').onclick = act(enter);
$('extend').onclick = act(extend);
$('buy').onsubmit = act(buy);
$('again').onclick = again;
setInterval(tick, 1000);
