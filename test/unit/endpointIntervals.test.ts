import { ENDPOINTS, endpointPath } from "../../provider/client/endpoints";
import { findRoute } from "../../testkit/emulator/routes";

/**
 * The client's table (provider/client/endpoints.ts) and the emulator's (testkit/emulator/routes.ts)
 * are kept apart on purpose, each from the service's API reference: this says they agree, route
 * by route, on the interval and the permission. A figure changed on one side only fails here.
 */
describe("every route the client calls, as the emulator serves it", () => {
    const params = { id: 7, offerId: 900001 };
    for (const [name, endpoint] of Object.entries(ENDPOINTS)) {
        it(`${name}: ${endpoint.method} ${endpoint.path}`, () => {
            const found = findRoute(endpoint.method, endpointPath(endpoint, params));
            expect(found).toEqual(expect.objectContaining({ route: expect.anything() }));
            if (typeof found !== "object") return;
            expect(found.route.intervalMs).toBe(endpoint.minIntervalMs);
            expect("scope" in found.route ? found.route.scope : "none (public)").toBe(endpoint.scope);
        });
    }
});
