/** The default demo's sample project: four modules sharing one money helper, a pytest suite per module. */
export const SELECT_DEMO_FILES: Record<string, string> = {
  "conftest.py": "# Puts the repository root on sys.path so the tests import `shop`.\n",
  "shop/__init__.py": "",
  "shop/money.py": `def round_money(amount):
    """Round to cents, halves up (what invoices and the cart expect)."""
    return int(amount * 100 + 0.5) / 100


def format_money(amount, currency="EUR"):
    return f"{amount:.2f} {currency}"
`,
  "shop/cart.py": `from .money import round_money


class Cart:
    def __init__(self):
        self.lines = []

    def add(self, price, qty=1):
        self.lines.append((price, qty))

    def subtotal(self):
        return round_money(sum(p * q for p, q in self.lines))
`,
  "shop/invoice.py": `from .money import format_money, round_money

VAT = 0.2


def vat_of(net):
    return round_money(net * VAT)


def total_line(net):
    return format_money(round_money(net + vat_of(net)))
`,
  "shop/users.py": `def display_name(user):
    return user.get("name") or user["email"].split("@")[0]


def can_refund(user):
    return user.get("role") in ("admin", "support")
`,
  "shop/shipping.py": `FREE_FROM = 50


def shipping_cost(subtotal):
    return 0 if subtotal >= FREE_FROM else 4.9
`,
  "tests/test_money.py": `from shop.money import format_money, round_money


def test_round_money_whole_cents():
    assert round_money(2.5) == 2.5


def test_format_money():
    assert format_money(3) == "3.00 EUR"
`,
  "tests/test_cart.py": `from shop.cart import Cart


def test_subtotal_rounds_half_up():
    c = Cart()
    c.add(0.125)
    assert c.subtotal() == 0.13
`,
  "tests/test_invoice.py": `from shop.invoice import total_line, vat_of


def test_vat_rounds_half_up():
    assert vat_of(0.625) == 0.13


def test_total_line():
    assert total_line(10) == "12.00 EUR"
`,
  "tests/test_users.py": `from shop.users import can_refund, display_name


def test_display_name_falls_back_to_email():
    assert display_name({"email": "ada@example.org"}) == "ada"


def test_support_can_refund():
    assert can_refund({"role": "support"})
`,
  "tests/test_shipping.py": `from shop.shipping import shipping_cost


def test_free_shipping_from_50():
    assert shipping_cost(50) == 0


def test_small_orders_pay_shipping():
    assert shipping_cost(10) == 4.9
`,
};

/** The agent's edit: "simplify" the helper to plain round(), which rounds halves to even. */
export const AGENT_CHANGE = {
  file: "shop/money.py",
  say: 'agent: "round_money(): replaced the manual arithmetic with round(amount, 2)"',
  apply: (s: string) => s.replace("return int(amount * 100 + 0.5) / 100", "return round(amount, 2)"),
};
