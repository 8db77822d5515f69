package io.ticketing.reservations.deploy;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.cartWith;
import static io.ticketing.reservations.support.Api.checkout;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Management.management;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.StringReader;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import io.fabric8.openshift.api.model.monitoring.v1.ServiceMonitor;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.config.ConfigMappings;
import io.ticketing.reservations.support.Api;
import io.ticketing.reservations.support.Management;

/**
 * The manifests under k8s/ as Kubernetes would read them and as the running service answers them: every document
 * is read into fabric8's models, generated from the Kubernetes and Prometheus operator schemas, and may carry no
 * field those schemas lack; the CloudNativePG resources, for which no model is at hand, are held to the fields
 * of its CRDs that they use. Ports, probe paths, variable names and metric names are checked against this very
 * service. The overlays are rendered with kustomize where {@code kubectl} or {@code kustomize} is installed.
 */
// Built as the image is: the probes and the scrape must answer on the management port.
@QuarkusTest
@TestProfile(Management.Interface.class)
class KubernetesManifestsTest {

    private static final Path K8S = Path.of("k8s");
    private static final ObjectMapper YAML = new YAMLMapper(new YAMLFactory());
    private static final ObjectMapper JSON = JsonMapper.builder().build();
    /** The @ConfigMapping interfaces of src/main, whose properties the environment may set. */
    private static final List<String> CONFIG_MAPPINGS = List.of("auth.AuthConfig", "tasks.TasksConfig",
            "webhooks.WebhookConfig", "reservation.ReservationConfig", "locking.LockConfig");
    /** The fields of CloudNativePG's Cluster and Pooler CRDs (postgresql.cnpg.io/v1) that the manifests use. */
    private static final Map<String, Set<String>> CNPG_SPEC_FIELDS = Map.of(
            "Cluster", Set.of("instances", "imageName", "primaryUpdateStrategy", "bootstrap", "postgresql",
                    "storage", "affinity", "resources", "monitoring", "minSyncReplicas", "maxSyncReplicas"),
            "Pooler", Set.of("cluster", "instances", "type", "pgbouncer"));

    private static final String APPLICATION_PROPERTIES = read(Path.of("src/main/resources/application.properties"));
    /** Computed once for the base and both overlays. */
    private static Set<String> serviceVariables;
    private static Set<String> publishedMetrics;

    @Test
    void everyManifestIsValidForItsSchemaAndTheBaseHoldsWhatProductionNeeds() throws IOException {
        List<Path> files = Files.readString(K8S.resolve("base/kustomization.yaml")).lines()
                .filter(line -> line.startsWith("  - ") && line.endsWith(".yaml"))
                .map(line -> K8S.resolve("base").resolve(line.substring(4).strip())).toList();
        List<HasMetadata> base = read(files);
        assertThat(kinds(base)).containsExactlyInAnyOrder("ConfigMap", "Deployment", "Service", "Service",
                "PodDisruptionBudget", "HorizontalPodAutoscaler", "NetworkPolicy", "ServiceMonitor", "PrometheusRule",
                "Cluster", "Pooler");
        checkAgainstTheService(base);

        List<HasMetadata> template = read(List.of(K8S.resolve("secret.example.yaml")));
        Secret secret = (Secret) template.get(0);
        assertThat(secret.getStringData().values()).as("no secret in git").allMatch("replace-me"::equals);
        assertThat(secret.getStringData().keySet()).allSatisfy(this::isAVariableTheServiceReads);
        assertThat(kinds(base)).as("kustomize applies no Secret").doesNotContain("Secret");
    }

    @Test
    void theOverlaysRenderAndKeepEveryGuarantee() throws Exception {
        Optional<List<String>> kustomize = kustomizeCommand();
        Assumptions.assumeTrue(kustomize.isPresent(),
                "neither kubectl nor kustomize is installed: overlays not rendered");
        for (String overlay : List.of("prod", "dev")) {
            List<HasMetadata> rendered = parse(render(kustomize.get(), K8S.resolve("overlays").resolve(overlay)),
                    "overlay " + overlay);
            assertThat(rendered).as(overlay).hasSize(11)
                    .allSatisfy(resource -> assertThat(resource.getMetadata().getNamespace())
                            .isEqualTo(overlay.equals("prod") ? "inventory" : "inventory-dev"));
            checkAgainstTheService(rendered);
            GenericKubernetesResource cluster = only(rendered, GenericKubernetesResource.class, "Cluster");
            int instances = ((Number) ((Map<?, ?>) cluster.getAdditionalProperties().get("spec")).get("instances"))
                    .intValue();
            assertThat(instances).as("PostgreSQL instances in %s", overlay).isEqualTo(overlay.equals("prod") ? 3 : 1);
        }
    }

    /** What holds in the base and every overlay: schema, restricted security, and agreement with the service. */
    private void checkAgainstTheService(List<HasMetadata> resources) throws IOException {
        Config config = ConfigProvider.getConfig();
        Deployment deployment = only(resources, Deployment.class, "Deployment");
        PodSpec pod = deployment.getSpec().getTemplate().getSpec();
        Container app = pod.getContainers().get(0);
        Map<String, Integer> ports = app.getPorts().stream()
                .collect(Collectors.toMap(ContainerPort::getName, ContainerPort::getContainerPort));
        Properties configured = new Properties();
        configured.load(new StringReader(APPLICATION_PROPERTIES));
        assertThat(ports).as("the ports of application.properties (tests run on random ones)")
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "http", Integer.valueOf(configured.getProperty("quarkus.http.port")),
                        "management", Integer.valueOf(configured.getProperty("quarkus.management.port"))));

        for (Probe probe : List.of(app.getStartupProbe(), app.getReadinessProbe(), app.getLivenessProbe())) {
            assertThat(probe.getHttpGet().getPort().getStrVal()).isEqualTo("management");
            assertThat(probe.getTimeoutSeconds()).as("an explicit probe timeout").isNotNull().isPositive();
            management().get(probe.getHttpGet().getPath()).then().statusCode(200);
        }
        assertThat(app.getReadinessProbe().getTimeoutSeconds()).isEqualTo(1);

        Duration drain = config.getValue("quarkus.shutdown.delay", Duration.class)
                .plus(config.getValue("quarkus.shutdown.timeout", Duration.class)).plusSeconds(5);
        assertThat(Duration.ofSeconds(pod.getTerminationGracePeriodSeconds())).as("grace period against the drain")
                .isGreaterThan(drain);
        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        assertThat(app.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(app.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        assertThat(app.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(pod.getTopologySpreadConstraints()).extracting("topologyKey")
                .contains("kubernetes.io/hostname", "topology.kubernetes.io/zone");
        assertThat(app.getResources().getLimits()).containsKey("memory");

        ConfigMap settings = only(resources, ConfigMap.class, "ConfigMap");
        assertThat(settings.getData().get("QUARKUS_DATASOURCE_JDBC_URL")).as("through PgBouncer")
                .contains("inventory-db-pooler-rw").contains("prepareThreshold=0");
        assertThat(settings.getData().get("TASKS_LISTEN_URL")).as("LISTEN on the primary").contains("inventory-db-rw");
        Set<String> variables = new TreeSet<>(settings.getData().keySet());
        app.getEnv().forEach(variable -> variables.add(variable.getName()));
        assertThat(variables).allSatisfy(this::isAVariableTheServiceReads);

        List<Service> services = resources.stream().filter(Service.class::isInstance).map(Service.class::cast)
                .toList();
        for (Service service : services) {
            service.getSpec().getPorts().forEach(port -> assertThat(ports).containsKey(port.getTargetPort()
                    .getStrVal()));
        }
        Service api = services.stream().filter(s -> s.getMetadata().getName().equals("inventory-reservations"))
                .findFirst().orElseThrow();
        assertThat(api.getSpec().getPorts()).extracting(port -> port.getTargetPort().getStrVal())
                .as("the public Service carries no management port").containsExactly("http");

        ServiceMonitor monitor = only(resources, ServiceMonitor.class, "ServiceMonitor");
        Service scraped = services.stream().filter(s -> s.getMetadata().getLabels().entrySet()
                .containsAll(monitor.getSpec().getSelector().getMatchLabels().entrySet())).findFirst().orElseThrow();
        assertThat(scraped.getSpec().getPorts()).extracting("name").contains(monitor.getSpec().getEndpoints().get(0)
                .getPort());
        management().get(monitor.getSpec().getEndpoints().get(0).getPath()).then().statusCode(200);

        assertThat(only(resources, PodDisruptionBudget.class, "PodDisruptionBudget").getSpec().getMaxUnavailable()
                .getIntVal()).isEqualTo(1);
        NetworkPolicy policy = only(resources, NetworkPolicy.class, "NetworkPolicy");
        assertThat(policy.getSpec().getPolicyTypes()).containsExactlyInAnyOrder("Ingress", "Egress");
        assertThat(policy.getSpec().getIngress()).flatExtracting(rule -> rule.getPorts())
                .extracting(port -> port.getPort().getStrVal()).containsExactlyInAnyOrder("http", "management");

        GenericKubernetesResource pooler = only(resources, GenericKubernetesResource.class, "Pooler");
        Map<?, ?> pgbouncer = (Map<?, ?>) ((Map<?, ?>) pooler.getAdditionalProperties().get("spec")).get("pgbouncer");
        assertThat(pgbouncer.get("poolMode")).isEqualTo("transaction");
        GenericKubernetesResource cluster = only(resources, GenericKubernetesResource.class, "Cluster");
        Map<?, ?> postgresql = (Map<?, ?>) ((Map<?, ?>) cluster.getAdditionalProperties().get("spec"))
                .get("postgresql");
        assertThat(((Map<?, ?>) postgresql.get("parameters")).get("jit"))
                .as("JIT off in the server: behind the pooler a connection's own SET reaches one server connection")
                .isEqualTo("off");

        Set<String> queried = new TreeSet<>();
        only(resources, PrometheusRule.class, "PrometheusRule").getSpec().getGroups()
                .forEach(group -> group.getRules().forEach(rule -> queried.addAll(metricNames(rule.getExpr()
                        .getStrVal()))));
        JsonNode dashboard = JSON.readTree(K8S.resolve("grafana/inventory-reservations.json").toFile());
        dashboard.findValues("expr").forEach(expr -> queried.addAll(metricNames(expr.asText())));
        assertThat(queried).contains("inventory_lock_timeouts_total", "inventory_tasks_failed",
                "inventory_webhooks_oldest_undelivered_seconds", "http_server_requests_seconds_bucket");
        Set<String> published = publishedMetrics();
        assertThat(queried).as("every metric the alerts and the dashboard query is published")
                .allSatisfy(name -> assertThat(published).contains(name));
    }

    /** Whether {@code variable} sets one of the service's settings (application.properties or a mapping). */
    private void isAVariableTheServiceReads(String variable) {
        assertThat(serviceVariables()).as("%s sets a setting of the service", variable).contains(variable);
    }

    /** The environment variables the service reads: its settings' names as variables, and the ${VAR:...} it names. */
    private static synchronized Set<String> serviceVariables() {
        if (serviceVariables == null) {
            Set<String> variables = new HashSet<>();
            ConfigProvider.getConfig().getPropertyNames().forEach(name -> variables.add(environmentName(name)));
            for (String mapping : CONFIG_MAPPINGS) {
                try {
                    Class<?> type = Class.forName("io.ticketing.reservations." + mapping);
                    ConfigMappings.getProperties(ConfigMappings.ConfigClass.configClass(type)).keySet()
                            .forEach(name -> variables.add(environmentName(name)));
                } catch (ClassNotFoundException e) {
                    throw new AssertionError(e);
                }
            }
            Matcher named = Pattern.compile("\\$\\{([A-Z0-9_]+):").matcher(APPLICATION_PROPERTIES);
            while (named.find()) {
                variables.add(named.group(1));
            }
            serviceVariables = variables;
        }
        return serviceVariables;
    }

    private static String environmentName(String property) {
        return property.replaceAll("[^A-Za-z0-9]", "_").toUpperCase();
    }

    /** Metrics the running service publishes, after one order and one refusal have been counted. */
    private static synchronized Set<String> publishedMetrics() {
        if (publishedMetrics != null) {
            return publishedMetrics;
        }
        String event = newEvent("manifests");
        long item = newItem(event, "Ticket", "10.00");
        newQuota(event, 1, List.of(item));
        checkout(event, cartWith(event, Map.of("item_id", item))).then().statusCode(201);
        addToCart(event, newCart(event), Map.of("item_id", item)).then().statusCode(409);
        String text = management().header("Authorization", Api.ADMIN).get("/q/metrics").then().statusCode(200).extract()
                .asString();
        Set<String> names = new HashSet<>();
        Matcher matcher = Pattern.compile("(?m)^([a-zA-Z_:][a-zA-Z0-9_:]*)").matcher(text);
        while (matcher.find()) {
            names.add(matcher.group(1));
        }
        publishedMetrics = names;
        return names;
    }

    private static Set<String> metricNames(String expression) {
        Set<String> names = new TreeSet<>();
        Matcher matcher = Pattern.compile("\\b((?:inventory|http_server|agroal|jvm)_[a-z_]+)").matcher(expression);
        while (matcher.find()) {
            names.add(matcher.group(1));
        }
        return names;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static List<HasMetadata> read(List<Path> files) throws IOException {
        List<HasMetadata> resources = new ArrayList<>();
        for (Path file : files) {
            resources.addAll(parse(Files.readString(file), file.toString()));
        }
        return resources;
    }

    /**
     * Each YAML document as fabric8's model of its kind. A field the schema lacks lands in a model's
     * additionalProperties (a typo such as {@code timeoutSecond}), which fails the test; CloudNativePG's kinds are
     * generic and their spec fields are checked against {@link #CNPG_SPEC_FIELDS}.
     */
    private static List<HasMetadata> parse(String yaml, String source) throws IOException {
        List<HasMetadata> resources = new ArrayList<>();
        for (String document : yaml.split("(?m)^---\\s*$")) {
            JsonNode tree = YAML.readTree(document);
            if (tree == null || tree.isEmpty()) {
                continue;
            }
            HasMetadata resource = YAML.treeToValue(tree, HasMetadata.class);
            String where = source + " " + resource.getKind() + "/" + resource.getMetadata().getName();
            if (resource instanceof GenericKubernetesResource generic) {
                assertThat(generic.getApiVersion()).as("%s has no model", where).isEqualTo("postgresql.cnpg.io/v1");
                assertThat(CNPG_SPEC_FIELDS).as(where).containsKey(generic.getKind());
                assertThat(((Map<?, ?>) generic.getAdditionalProperties().get("spec")).keySet()).as(where)
                        .allSatisfy(field -> assertThat(CNPG_SPEC_FIELDS.get(generic.getKind())).contains(
                                (String) field));
            } else {
                List<String> unknown = new ArrayList<>();
                unknownFields(resource, "", unknown);
                assertThat(unknown).as("fields %s's schema does not have", where).isEmpty();
            }
            resources.add(resource);
        }
        return resources;
    }

    private static void unknownFields(Object value, String path, List<String> unknown) {
        if (value instanceof Map<?, ?> map) {
            map.forEach((key, entry) -> unknownFields(entry, path + "." + key, unknown));
        } else if (value instanceof Collection<?> collection) {
            int index = 0;
            for (Object element : collection) {
                unknownFields(element, path + "[" + index++ + "]", unknown);
            }
        } else if (value != null && value.getClass().getName().startsWith("io.fabric8.")) {
            for (Method getter : value.getClass().getMethods()) {
                if (getter.getParameterCount() != 0 || !getter.getName().startsWith("get")
                        || !getter.getDeclaringClass().getName().startsWith("io.fabric8.")) {
                    continue;
                }
                Object field;
                try {
                    field = getter.invoke(value);
                } catch (ReflectiveOperationException e) {
                    throw new AssertionError(e);
                }
                if (getter.getName().equals("getAdditionalProperties")) {
                    ((Map<?, ?>) field).keySet().forEach(key -> unknown.add(path + "." + key));
                } else {
                    unknownFields(field, path + "." + getter.getName().substring(3), unknown);
                }
            }
        }
    }

    private static List<String> kinds(List<HasMetadata> resources) {
        return resources.stream().map(HasMetadata::getKind).toList();
    }

    private static <T extends HasMetadata> T only(List<HasMetadata> resources, Class<T> type, String kind) {
        List<T> found = resources.stream().filter(type::isInstance).filter(r -> r.getKind().equals(kind))
                .map(type::cast).toList();
        assertThat(found).as(kind).hasSize(1);
        return found.get(0);
    }

    private static Optional<List<String>> kustomizeCommand() {
        for (String directory : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(directory, "kubectl"))) {
                return Optional.of(List.of("kubectl", "kustomize"));
            }
            if (Files.isExecutable(Path.of(directory, "kustomize"))) {
                return Optional.of(List.of("kustomize", "build"));
            }
        }
        return Optional.empty();
    }

    private static String render(List<String> command, Path overlay) throws Exception {
        List<String> full = new ArrayList<>(command);
        full.add(overlay.toString());
        Process process = new ProcessBuilder(full).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor()).as("%s: %s", String.join(" ", full), output).isZero();
        return output;
    }
}
