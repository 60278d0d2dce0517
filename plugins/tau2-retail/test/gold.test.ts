import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { goldDbCli } from '../src/cli';
import { loadData } from '../src/data';
import { goldActions, replayGold } from '../src/gold';
import { canonicalJson } from '../src/py';
import { DATA_DIR, describeWithData } from './helpers';

/** Gold actions that fail in the reference too (the parity test checks the messages against it); every other action succeeds. */
const FAILING: Record<string, string[]> = {
  '2': ['get_product_details: Error: Product not found'],
  '3': ['get_product_details: Error: Product not found'],
  '4': ['get_product_details: Error: Product not found'],
  '35': ['find_user_id_by_email: Error: User not found'],
  '37': ['find_user_id_by_email: Error: User not found'],
  '38': ['find_user_id_by_email: Error: User not found'],
  '39': ['find_user_id_by_name_zip: Error: User not found'],
  '46': ['get_order_details: Error: Order not found', 'get_order_details: Error: Order not found'],
  '47': ['get_order_details: Error: Order not found', 'get_order_details: Error: Order not found'],
  '54': ['find_user_id_by_email: Error: User not found'],
  '55': ['find_user_id_by_email: Error: User not found'],
  '64': ['exchange_delivered_order_items: Error: Non-delivered order cannot be exchanged'],
  '67': ['find_user_id_by_name_zip: Error: User not found', 'find_user_id_by_name_zip: Error: User not found'],
  '68': ['find_user_id_by_name_zip: Error: User not found'],
  '105': ['exchange_delivered_order_items: Error: Insufficient gift card balance to pay for the price difference'],
};

describeWithData('gold actions', () => {
  test('all 114 tasks replay through the tools; the only failing actions are the ones the data means to fail', () => {
    const data = loadData();
    expect(data.tasks).toHaveLength(114);
    const failing: Record<string, string[]> = {};
    let writes = 0;
    for (const task of data.tasks) {
      const { steps } = replayGold(data.db, goldActions(task) ?? []);
      for (const step of steps) {
        if (step.error) (failing[task.id] ??= []).push(`${step.action.name}: ${step.output}`);
        if (step.wrote) writes++;
      }
    }
    expect(failing).toEqual(FAILING);
    expect(writes).toBe(174);
  });

  test('hand-checked: task 0 exchanges two items of #W2378156, the price difference rounded to cents', () => {
    const data = loadData();
    const raw = JSON.parse(readFileSync(join(DATA_DIR, 'db.json'), 'utf8'));
    const price = (product: string, item: string): number => raw.products[product].variants[item].price;
    const { db } = replayGold(data.db, goldActions(data.tasks[0]!)!);
    const order = db.orders['#W2378156']!;
    // keyboard 1151293680 -> 7706410293 (product 1656367028), thermostat 4983901480 -> 7747408585 (product 4896585277)
    const old = raw.orders['#W2378156'].items as { item_id: string; price: number }[];
    const oldPrice = (id: string): number => old.find((i) => i.item_id === id)!.price;
    const difference = Math.round((price('1656367028', '7706410293') - oldPrice('1151293680') + price('4896585277', '7747408585') - oldPrice('4983901480')) * 100) / 100;
    expect(order).toMatchObject({
      status: 'exchange requested',
      exchange_items: ['1151293680', '4983901480'],
      exchange_new_items: ['7706410293', '7747408585'],
      exchange_payment_method_id: 'credit_card_9513926',
      exchange_price_difference: difference,
    });
    // Nothing else changed.
    const changed = Object.keys(db.orders).filter((id) => db.orders[id] !== data.db.orders[id]);
    expect(changed).toEqual(['#W2378156']);
    expect(db.users).toBe(data.db.users);
  });

  test('hand-checked: task 16 cancels the pending orders and refunds gift cards at once', () => {
    const data = loadData();
    const task = data.tasks.find((t) => t.id === '16')!;
    const { db, steps } = replayGold(data.db, goldActions(task)!);
    const cancels = steps.filter((s) => s.action.name === 'cancel_pending_order');
    expect(cancels.length).toBeGreaterThan(0);
    for (const cancel of cancels) {
      const id = cancel.action.arguments.order_id as string;
      const before = data.db.orders[id]!;
      const after = db.orders[id]!;
      expect(after.status).toBe('cancelled');
      expect(after.cancel_reason).toBe(cancel.action.arguments.reason);
      expect(after.payment_history).toEqual([...before.payment_history, ...before.payment_history.map((p) => ({ ...p, transaction_type: 'refund' }))]);
    }
    const user = db.users[data.db.orders[cancels[0]!.action.arguments.order_id as string]!.user_id]!;
    for (const [id, method] of Object.entries(user.payment_methods)) {
      if (method.source !== 'gift_card') continue;
      const refunded = cancels
        .flatMap((c) => data.db.orders[c.action.arguments.order_id as string]!.payment_history)
        .filter((p) => p.payment_method_id === id)
        .reduce((sum, p) => sum + p.amount, 0);
      const before = (data.db.users[user.user_id]!.payment_methods[id] as { balance: number }).balance;
      expect(method.balance).toBeCloseTo(before + refunded, 2);
    }
  });

  test('gold-db writes the canonical JSON of the final database, in process and through the built bin', () => {
    const data = loadData();
    const expected = `${canonicalJson(replayGold(data.db, goldActions(data.tasks.find((t) => t.id === '5')!)!).db)}\n`;
    const dir = mkdtempSync(join(tmpdir(), 'tau2-gold-'));
    try {
      const errors: string[] = [];
      expect(goldDbCli(['5', '--data', DATA_DIR, '--out', join(dir, 'in-process.json')], { out: () => undefined, err: (t) => errors.push(t) })).toBe(0);
      expect(readFileSync(join(dir, 'in-process.json'), 'utf8')).toBe(expected);
      expect(errors.join('')).toContain('wrote return_delivered_order_items');
      const bin = join(__dirname, '..', 'bin', 'gold-db.js');
      expect(existsSync(join(__dirname, '..', 'dist', 'cli.js'))).toBe(true); // the test target builds first
      const run = spawnSync(process.execPath, [bin, '5', '--out', join(dir, 'bin.json')], { encoding: 'utf8' });
      expect(run.status).toBe(0);
      expect(readFileSync(join(dir, 'bin.json'), 'utf8')).toBe(expected);
      expect(JSON.parse(expected).orders['#W2611340']).toEqual(JSON.parse(JSON.stringify(data.db.orders['#W2611340'])));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('gold-db refuses an unknown task and a missing data folder, naming what to give', () => {
    const err: string[] = [];
    const io = { out: () => undefined, err: (t: string) => err.push(t) };
    expect(goldDbCli(['999', '--data', DATA_DIR], io)).toBe(1);
    expect(err.pop()).toContain('has no task "999"');
    expect(goldDbCli(['1', '--data', '/nonexistent/tau2'], io)).toBe(1);
    expect(err.pop()).toMatch(/τ²-bench retail data not found: \/nonexistent\/tau2 lacks db\.json.*--data DIR/);
    expect(goldDbCli([], io)).toBe(2);
    expect(err.pop()).toContain('usage: gold-db TASK_ID');
  });
});
