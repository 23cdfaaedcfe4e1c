import * as vast from "pulumi-vastai";

const reader = new vast.ApiKey("ci-reader", {
    name: "ci-reader",
    permissions: vast.apiKeyPermissions("user_read").grant("instance_read", {
        "api.instance.request_logs": { constraints: { id: { eq: 1227 } } },   // its shape checked, then sent as given
    }),
});
export const readerKey = reader.key;   // secret
